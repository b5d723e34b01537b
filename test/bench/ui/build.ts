/**
 * Builds for the UI benchmarks, into temporary directories (never `out/`, which the app and the e2e
 * tests use): the console (`electron-vite build --outDir`, as `npm run build` does), and P5's floor, a
 * bare Monaco page (`monaco-floor/`, bundled by Vite the way the renderer bundles Monaco). Also reads
 * the renderer's initial JavaScript and Monaco's chunks (P4).
 */
import { spawn } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { REPO_ROOT } from '../lib/sandbox-process.ts'

const HERE = dirname(fileURLToPath(import.meta.url))

/** Runs `electron-vite build --outDir <outDir>`; returns the renderer folder and how long the build took. */
export async function buildConsole(outDir: string): Promise<{ rendererDir: string; ms: number }> {
  const t0 = performance.now()
  const child = spawn(
    process.execPath,
    [
      join(REPO_ROOT, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '--outDir',
      outDir,
      '--logLevel',
      'error',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-3000)))
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-3000)))
  const code = await new Promise<number | null>((r) => child.once('close', r))
  if (code !== 0) throw new Error(`electron-vite build exited with ${code}: ${out}`)
  return { rendererDir: join(outDir, 'renderer'), ms: performance.now() - t0 }
}

/** Bundles the bare Monaco page into `outDir`. */
export async function buildMonacoFloor(outDir: string): Promise<string> {
  const { build } = await import('vite')
  await build({
    configFile: false,
    root: join(HERE, 'monaco-floor'),
    base: './',
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, minify: true },
  })
  return outDir
}

export interface Chunk {
  file: string
  bytes: number
  gzip: number
}

export interface BundleSizes {
  /** What index.html loads before any dynamic import: its entry script, modulepreloads and their static imports. */
  initial: Chunk[]
  initialGzip: number
  /** JavaScript chunks that hold Monaco (the lazily loaded code view and its language modes), largest first. */
  monaco: Chunk[]
  /** Web workers (Monaco's editor and JSON workers). */
  workers: Chunk[]
  /** Whether any initial chunk holds Monaco (it must not). */
  monacoInInitial: boolean
}

function chunk(dir: string, file: string): Chunk {
  const bytes = readFileSync(join(dir, file))
  return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/** Monaco marks its DOM with this class name; no other code of ours carries it. */
const holdsMonaco = (source: string) => source.includes('monaco-editor')

/** Reads the built renderer: the initial JavaScript (gzip -9), Monaco's chunks and the workers. */
export function bundleSizes(rendererDir: string): BundleSizes {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const refs = [
    ...html.matchAll(/<script[^>]+src="\.\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\.\/([^"]+\.js)"/g),
  ].map((m) => m[1]!)
  const initial = new Set<string>()
  const queue = [...refs]
  while (queue.length) {
    const file = queue.shift()!
    if (initial.has(file)) continue
    initial.add(file)
    const source = readFileSync(join(rendererDir, file), 'utf8')
    // Static imports only (`import … from "./x.js"`, `import "./x.js"`); `import("./x.js")` is lazy.
    for (const m of source.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g))
      queue.push(join(dirname(file), m[1]!))
  }
  const assets = readdirSync(join(rendererDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`)
  const workers = assets.filter((f) => /worker/i.test(f)).map((f) => chunk(rendererDir, f))
  const initialChunks = [...initial].map((f) => chunk(rendererDir, f))
  const monaco = assets
    .filter((f) => !initial.has(f) && !/worker/i.test(f) && holdsMonaco(readFileSync(join(rendererDir, f), 'utf8')))
    .map((f) => chunk(rendererDir, f))
    .sort((a, b) => b.bytes - a.bytes)
  return {
    initial: initialChunks,
    initialGzip: initialChunks.reduce((n, c) => n + c.gzip, 0),
    monaco,
    workers,
    monacoInInitial: [...initial].some((f) => holdsMonaco(readFileSync(join(rendererDir, f), 'utf8'))),
  }
}
