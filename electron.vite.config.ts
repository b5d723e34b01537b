import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

// The Electron shell is built here; everything else runs as plain Node (see docs/architecture.md).
export default defineConfig({
  main: {
    build: {
      // The conformance lens's worker thread is its own entry: out/main/conformance-worker.js.
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src-main/index.ts'),
          'conformance-worker': resolve(import.meta.dirname, 'src-main/conformance/conformance-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src-main/shell/preload.ts') },
        // One CommonJS file, so the renderer window can keep `sandbox: true`.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      minify: true,
      // The one chunk over Vite's default 500 kB is Monaco's (code-view, about 3.9 MB minified), loaded the
      // first time an editor is shown and never at start. Cut into pieces (rolldown codeSplitting, maxSize)
      // it became 50 scripts and 30 stylesheets, one of them preloaded at start; so it stays whole and
      // the limit sits just above it. What loads at start is held by the benchmark P4 (docs/benchmarks.md).
      chunkSizeWarningLimit: 4_200,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src-renderer/index.html') } },
    },
  },
})
