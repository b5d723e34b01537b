#!/usr/bin/env node
// Builds the command line (and with it the web host and the local sandbox) into out/cli/ as plain
// JavaScript, so `bin/ob-console.js` starts without compiling TypeScript. Run by `npm ci` (the `prepare`
// script) and by `npm run build`. The dependencies are bundled too: resolving and loading some 600 files
// of node_modules one by one took about a third of a second of every command's start. Two parts: main.js,
// which answers `help` alone, and commands.cjs, loaded only when a command runs.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { ESM_REQUIRE_BANNER, nodeBundleOptions } from './node-bundle.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'out', 'cli')
const META_DIR = join(ROOT, 'out', 'build-meta')

rmSync(OUT, { recursive: true, force: true })
const started = Date.now()
const common = nodeBundleOptions(ROOT, OUT)
const [, commands] = await Promise.all([
  // main.js: what `help` and every `--help` need, and the loader of commands.cjs (src-main/cli/built-main.ts).
  // The conformance lens's worker thread is its own entry, beside the file that starts it; so is the builder
  // of the validators, run below. ES modules: Node 22.1 and later keep their compiled code between runs.
  build({
    ...common,
    entryPoints: {
      main: 'src-main/cli/built-main.ts',
      'conformance-worker': 'src-main/conformance/conformance-worker.ts',
      'build-validators': 'scripts/build-validators.ts',
    },
    splitting: true,
    format: 'esm',
    // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
    banner: { js: ESM_REQUIRE_BANNER },
    chunkNames: '[name]-[hash]',
  }),
  // commands.cjs: every command with the engine, the web host and the sandbox, as one CommonJS file, which
  // main.js compiles through V8's code cache of the command that runs (Node has no such cache for an ES
  // module before 22.1, and none of the functions a run compiles after its start). A module reached by import()
  // is evaluated only when a command imports it, as in the sources. The files beside it (the lens's worker,
  // resources two folders up) are found from `import.meta` as set here, with the file's own names.
  build({
    ...common,
    entryPoints: { commands: 'src-main/cli/commands.ts' },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    define: { 'import.meta': '__obImportMeta' },
    // Strict mode for the whole file, as every ES module is: the code and packages bundled here ran as ES
    // modules before, and sloppy mode would change what they do (a write to a frozen object ignored, not thrown).
    banner: {
      js: "'use strict'; const __obImportMeta = { url: require('node:url').pathToFileURL(__filename).href, dirname: __dirname, filename: __filename };",
    },
    metafile: true,
  }),
])
// What commands.cjs holds and how its modules import each other (read by test/unit/scripts/build-cli.test.ts).
mkdirSync(META_DIR, { recursive: true })
writeFileSync(join(META_DIR, 'commands.json'), JSON.stringify(commands.metafile))
process.stderr.write(`ob-console: built the command line into out/cli in ${Date.now() - started} ms\n`)

// The lens's and the sandbox's schema validators, compiled now instead of on every start (out/validators/).
const validatorsStarted = Date.now()
const { buildValidators } = await import(pathToFileURL(join(OUT, 'build-validators.js')).href)
const written = buildValidators(join(ROOT, 'resources', 'openapi'))
process.stderr.write(
  `ob-console: built ${written.length} validator modules into out/validators in ${Date.now() - validatorsStarted} ms\n`,
)
