/**
 * The P1 journey workers as the console runs its engine: `worker.ts` (the floor's and the engine's runner) and
 * the lens's worker thread bundled by esbuild with the command line's own settings (scripts/node-bundle.mjs)
 * into `out/bench-journey/`, two folders below the repository's `resources/` as `out/cli/` is. Run from the
 * TypeScript through tsx instead, every function of the engine's hundreds of modules would be renamed at run
 * time (tsx keeps names with an `__name` call at each closure made) and every import go through tsx's loader:
 * costs of the development runner that no user's command pays, and that fell on the engine far more than on
 * the floor's two files. Both sides run the same kind of bundle.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { ESM_REQUIRE_BANNER, nodeBundleOptions } from '../../../scripts/node-bundle.mjs'
import { REPO_ROOT } from '../lib/sandbox-process.ts'

/** The workers' TypeScript, for a run through tsx (`--profile`: the profiles then name the source files). */
export const JOURNEY_WORKER_SOURCE = join(REPO_ROOT, 'test', 'bench', 'journey', 'worker.ts')

/** Builds the workers' bundle; returns the file to fork (with the variant as its argument). */
export async function buildJourneyWorker(): Promise<string> {
  const outdir = join(REPO_ROOT, 'out', 'bench-journey')
  rmSync(outdir, { recursive: true, force: true })
  await build({
    ...nodeBundleOptions(REPO_ROOT, outdir),
    entryPoints: {
      'journey-worker': 'test/bench/journey/worker.ts',
      'conformance-worker': 'src-main/conformance/conformance-worker.ts',
    },
    splitting: true,
    format: 'esm',
    banner: { js: ESM_REQUIRE_BANNER },
    chunkNames: '[name]-[hash]',
  })
  return join(outdir, 'journey-worker.js')
}
