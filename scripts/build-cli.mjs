#!/usr/bin/env node
// Builds the command line (and with it the web host and the local sandbox) into out/cli/ as plain
// JavaScript, so `bin/ob-console.js` starts without compiling TypeScript. Run by `npm ci` (the `prepare`
// script) and by `npm run build`. Dependencies stay in node_modules (not bundled); each command is its own
// chunk, loaded only when that command runs.
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'out', 'cli')

rmSync(OUT, { recursive: true, force: true })
const started = Date.now()
await build({
  absWorkingDir: ROOT,
  // The conformance lens's worker thread is its own entry, beside the chunks that start it.
  entryPoints: { main: 'src-main/cli/main.ts', 'conformance-worker': 'src-main/conformance/conformance-worker.ts' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  sourcemap: 'linked',
  // Chunks sit beside main.js: the sources find the repository root two levels up from their own folder.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
})
process.stderr.write(`ob-console: built the command line into out/cli in ${Date.now() - started} ms\n`)
