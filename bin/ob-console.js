#!/usr/bin/env node
// Entry point of the `ob-console` command. It runs the compiled command line in out/cli/ (built by
// `npm ci` through the `prepare` script, and by `npm run build`). When that build is missing, or with
// OB_CONSOLE_FROM_SOURCE=1, it runs the TypeScript sources through tsx instead, which starts slower (tsx is
// a development dependency: a clone has it after `npm ci`).
import { existsSync } from 'node:fs'
import module from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'

// Where the command line keeps compiled code between runs, in the user's cache folder: Node 22.1 and later
// keep the compiled code of out/cli/main.js there, and main.js keeps V8's code cache of each command it runs
// from out/cli/commands.cjs (see src-main/cli/built-main.ts). NODE_DISABLE_COMPILE_CACHE=1 turns both off.
const cacheDir =
  process.env.NODE_DISABLE_COMPILE_CACHE === '1'
    ? undefined
    : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ob-console')
if (cacheDir) module.enableCompileCache?.(join(cacheDir, 'compile-cache'))

const bundle = new URL('../out/cli/main.js', import.meta.url)
const fromSource = process.env.OB_CONSOLE_FROM_SOURCE === '1'
const argv = process.argv.slice(2)
if (!fromSource && existsSync(bundle)) {
  const { main } = await import(bundle.href)
  process.exitCode = await main(argv, cacheDir && join(cacheDir, 'code-cache'))
} else {
  if (!fromSource)
    process.stderr.write(
      'ob-console: out/cli is not built (run "npm run build:cli"); running the TypeScript sources, which starts slower.\n',
    )
  let tsx
  try {
    tsx = await import('tsx/esm/api')
  } catch {
    process.stderr.write(
      'ob-console: neither out/cli nor tsx is installed, so the command line cannot run: run "npm ci" in the clone (it builds out/cli), or "npm run build:cli".\n',
    )
    process.exit(1)
  }
  tsx.register()
  const { main } = await import('../src-main/cli/main.ts')
  process.exitCode = await main(argv, () => import('../src-main/cli/commands.ts'))
}
