#!/usr/bin/env node
// Entry point of the `ob-console` command. It runs the compiled command line in out/cli/ (built by
// `npm ci` through the `prepare` script, and by `npm run build`). When that build is missing, or with
// OB_CONSOLE_FROM_SOURCE=1, it runs the TypeScript sources through tsx instead, which starts slower (tsx is
// a development dependency: a clone has it after `npm ci`).
import { existsSync } from 'node:fs'
import module from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'

// Node 22.1 and later keep the compiled code of the command line's modules between runs, in the user's cache
// folder (about 40 ms of every start on Node 24). On Node 20, which has no compile cache, this does nothing;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.(
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ob-console', 'compile-cache'),
)

const bundle = new URL('../out/cli/main.js', import.meta.url)
const fromSource = process.env.OB_CONSOLE_FROM_SOURCE === '1'
let main
if (!fromSource && existsSync(bundle)) {
  ;({ main } = await import(bundle.href))
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
  ;({ main } = await import('../src-main/cli/main.ts'))
}
process.exitCode = await main(process.argv.slice(2))
