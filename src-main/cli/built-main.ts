/**
 * The entry of the built command line (out/cli/main.js, `scripts/build-cli.mjs`): `main` with the commands
 * from out/cli/commands.cjs, compiled from V8's code cache of the command that runs, made at the end of its
 * first run (`plumbing/code-cache.ts`). Node 20 has no compile cache of its own for ES modules (Node 22.1 and
 * later do, and `bin/ob-console.js` turns it on for this file); compiling the engine, the sandbox and their
 * packages was about 100 ms of every `ais --env local` and `serve` start on Node 20 (docs/benchmarks.md).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { requireWithCodeCache } from '../plumbing/code-cache.ts'
import type { CommandsModule } from './commands.ts'
import { main as dispatch } from './main.ts'

/** The file of the commands' code cache for `command` `sub`, under `cacheDir` (sub only when it names one). */
function commandCacheFile(cacheDir: string, command: string, sub: string | undefined): string {
  const name = sub && /^[a-z][a-z0-9-]{0,31}$/.test(sub) ? `${command}-${sub}` : command
  return join(cacheDir, `commands-${name}.v8cache`)
}

/**
 * Runs the CLI; returns the process exit code. `cacheDir`: where the commands' code caches are kept (one file
 * per command and subcommand, each rewritten when the build or the Node version changes), or undefined for none.
 */
export function main(argv: string[], cacheDir: string | undefined): Promise<number> {
  return dispatch(argv, async (command, sub) => {
    const file = join(import.meta.dirname, 'commands.cjs')
    if (!existsSync(file)) throw new Error(`${file} is missing: the build is incomplete (run "npm run build:cli")`)
    const loaded = requireWithCodeCache(file, cacheDir && commandCacheFile(cacheDir, command, sub)).exports as
      Partial<CommandsModule> | undefined
    if (typeof loaded?.runCommand !== 'function')
      throw new Error(
        `${file} has no runCommand: it is not a build of src-main/cli/commands.ts (run "npm run build:cli")`,
      )
    return { runCommand: loaded.runCommand }
  })
}
