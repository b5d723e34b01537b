#!/usr/bin/env node
// Builds the command line (and with it the web host and the local sandbox) into out/cli/ as plain
// JavaScript, so `bin/ob-console.js` starts without compiling TypeScript. Run by `npm ci` (the `prepare`
// script) and by `npm run build`. The dependencies are bundled too: resolving and loading some 600 files
// of node_modules one by one took about a third of a second of every command's start. Each command is its
// own chunk, loaded only when that command runs.
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'out', 'cli')

rmSync(OUT, { recursive: true, force: true })
const started = Date.now()
await build({
  absWorkingDir: ROOT,
  // The conformance lens's worker thread is its own entry, beside the chunks that start it; so is the
  // builder of the validators, run below.
  entryPoints: {
    main: 'src-main/cli/main.ts',
    'conformance-worker': 'src-main/conformance/conformance-worker.ts',
    'build-validators': 'scripts/build-validators.ts',
  },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Electron's API exists only inside the desktop app, which never loads this build. pg requires its
  // optional native binding (pg-native) only when asked for it, which the sandbox never does.
  external: ['electron', 'pg-native'],
  // One copy of the MIME types table: koa's own mime-types (3.x) also for the content negotiation of the
  // accepts 1.x it depends on, which asks only `lookup(extension)` of it. Two copies (mime-db 1.54 and 1.52,
  // about 200 KB of code each, and a table built from each at load) cost every command that starts a server.
  alias: { 'mime-types': './node_modules/mime-types' },
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
  banner: {
    js: "import { createRequire as __obRequire } from 'node:module'; const require = __obRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  // The maps point at the files in the repository and node_modules instead of carrying a copy of them.
  sourcesContent: false,
  // Chunks sit beside main.js: the sources find the repository root two levels up from their own folder.
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
})
process.stderr.write(`ob-console: built the command line into out/cli in ${Date.now() - started} ms\n`)

// The lens's and the sandbox's schema validators, compiled now instead of on every start (out/validators/).
const validatorsStarted = Date.now()
const { buildValidators } = await import(pathToFileURL(join(OUT, 'build-validators.js')).href)
const written = buildValidators(join(ROOT, 'resources', 'openapi'))
process.stderr.write(
  `ob-console: built ${written.length} validator modules into out/validators in ${Date.now() - validatorsStarted} ms\n`,
)
