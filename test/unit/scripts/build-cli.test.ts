import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

describe('the sources scripts/build-cli.mjs bundles', () => {
  // esbuild's split bundle gives a package imported with import() only a default export when it is
  // CommonJS (undici, pdf-lib): `const { Agent } = await import('undici')` is undefined there, though it works
  // from the sources. Our own modules and ES module packages (oidc-provider) are fine.
  it('never import a CommonJS package dynamically', () => {
    const found: string[] = []
    for (const file of sources(join(ROOT, 'src-main'))) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/(?<!typeof )\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const name = m[1]!
        if (name.startsWith('.') || name.startsWith('node:')) continue
        const pkgName = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!
        const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', pkgName, 'package.json'), 'utf8'))
        if (pkg.type !== 'module') found.push(`${relative(ROOT, file)}: import('${name}')`)
      }
    }
    expect(found).toEqual([])
  })
})

/** Every node reachable from `start` (itself included), following `next`. */
function reachable(start: string, next: (node: string) => Iterable<string>): string[] {
  const seen = new Set<string>()
  const todo = [start]
  while (todo.length) {
    const node = todo.pop()!
    if (seen.has(node)) continue
    seen.add(node)
    todo.push(...next(node))
  }
  return [...seen]
}

/**
 * The sources behind a chunk of out/cli and every chunk it imports statically (`import … from "./x.js"`), by
 * the `// path` comments esbuild writes before each module. What a dynamic import() loads is not followed.
 */
function staticSources(chunk: string): string[] {
  const text = (file: string) => readFileSync(join(ROOT, 'out', 'cli', file), 'utf8')
  const chunks = reachable(chunk, (file) =>
    [...text(file).matchAll(/^(?:import|export)\b[^;]*?["']\.\/([^"']+)["']/gms)].map((m) => m[1]!),
  )
  return [...new Set(chunks.flatMap((file) => [...text(file).matchAll(/^\/\/ (\S+)$/gm)].map((m) => m[1]!)))]
}

/** esbuild's account of out/cli/commands.cjs (scripts/build-cli.mjs writes it to out/build-meta/commands.json). */
interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; kind: string }> }>
}
const commandsMeta = (): Metafile =>
  JSON.parse(readFileSync(join(ROOT, 'out', 'build-meta', 'commands.json'), 'utf8')) as Metafile

/**
 * The sources commands.cjs evaluates with `source`: those it imports with import statements, and theirs. A
 * module reached only by import() is evaluated when that import() runs, as in the sources.
 */
const evaluatedWith = (meta: Metafile, source: string): string[] =>
  reachable(source, (s) =>
    (meta.inputs[s]?.imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => i.path),
  )

describe("the command line as built in out/cli (by the tests' global setup)", () => {
  it('starts `help` without loading any command, engine or sandbox module (main.js)', () => {
    expect(existsSync(join(ROOT, 'out', 'cli', 'main.js'))).toBe(true)
    const loaded = staticSources('main.js')
    expect(loaded).toContain('src-main/cli/usage.ts')
    expect(loaded).toContain('src-main/plumbing/code-cache.ts')
    expect(
      loaded.filter((s) =>
        /^src-main\/(local-sandbox|services|flows|http|web-host)\/|^src-main\/cli\/commands\.ts$/.test(s),
      ),
    ).toEqual([])
  })

  it('holds every command in commands.cjs, loading what a command needs only when it runs', () => {
    const meta = commandsMeta()
    // In strict mode as a whole, as the ES modules it is made of are (a directive before anything else).
    expect(readFileSync(join(ROOT, 'out', 'cli', 'commands.cjs'), 'utf8')).toMatch(/^'use strict';/)
    // What loading commands.cjs evaluates before any command runs: the few modules of commands.ts's own.
    expect(
      evaluatedWith(meta, 'src-main/cli/commands.ts').filter((s) => /-command\.ts$|local-sandbox\//.test(s)),
    ).toEqual([])
    // The sandbox's servers only when a command starts one (index.ts imports them lazily).
    for (const command of ['src-main/cli/sandbox-command.ts', 'src-main/cli/journey-command.ts']) {
      const loaded = evaluatedWith(meta, command)
      expect(loaded, command).toContain('src-main/local-sandbox/index.ts')
      expect(
        loaded.filter(
          (s) => s === 'src-main/local-sandbox/start-sandbox.ts' || /node_modules\/(koa|oidc-provider)\//.test(s),
        ),
        command,
      ).toEqual([])
    }
  })

  it('holds one MIME types table: koa’s, also for the content negotiation of the accepts it depends on', () => {
    const bundled = Object.keys(commandsMeta().inputs)
    const tables = bundled.filter((s) => /node_modules\/(?:.*\/)?mime-db\/db\.json$/.test(s))
    expect(tables).toEqual(['node_modules/mime-db/db.json'])
    expect(bundled.filter((s) => s.includes('node_modules/accepts/node_modules/'))).toEqual([])
    expect(bundled).toContain('node_modules/accepts/index.js')
  })
})
