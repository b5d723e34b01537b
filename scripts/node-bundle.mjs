// How the command line's Node code is bundled (esbuild), for every build that must match it: the command
// line itself (scripts/build-cli.mjs) and the P1 bench's journey workers (test/bench/journey/build-worker.ts),
// which measure the console's engine as the command line runs it.

/** esbuild's options for a bundle of Node code rooted at `root` into `outdir`. */
export function nodeBundleOptions(root, outdir) {
  return {
    absWorkingDir: root,
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    // Electron's API exists only inside the desktop app, which never loads this build. pg requires its
    // optional native binding (pg-native) only when asked for it, which the sandbox never does.
    external: ['electron', 'pg-native'],
    // One copy of the MIME types table: koa's own mime-types (3.x) also for the content negotiation of the
    // accepts 1.x it depends on, which asks only `lookup(extension)` of it. Two copies (mime-db 1.54 and 1.52,
    // about 200 KB of code each, and a table built from each at load) cost every command that starts a server.
    alias: { 'mime-types': './node_modules/mime-types' },
    sourcemap: 'linked',
    // The maps point at the files in the repository and node_modules instead of carrying a copy of them.
    sourcesContent: false,
    logLevel: 'warning',
  }
}

/** The first line of an ES module bundle: `require` for the CommonJS packages bundled into it. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __obRequire } from 'node:module'; const require = __obRequire(import.meta.url);"
