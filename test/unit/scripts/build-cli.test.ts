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

/**
 * The sources behind a chunk of out/cli and every chunk it imports statically (`import … from "./x.js"`), by
 * the `// path` comments esbuild writes before each module. What a dynamic import() loads is not followed.
 */
function staticSources(chunk: string): string[] {
  const dir = join(ROOT, 'out', 'cli')
  const seen = new Set<string>()
  const found = new Set<string>()
  const todo = [chunk]
  while (todo.length) {
    const file = todo.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const text = readFileSync(join(dir, file), 'utf8')
    for (const m of text.matchAll(/^\/\/ (\S+)$/gm)) found.add(m[1]!)
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?["']\.\/([^"']+)["']/gms)) todo.push(m[1]!)
  }
  return [...found]
}

describe("the command line as built in out/cli (by the tests' global setup)", () => {
  const chunkOf = (name: string) =>
    readdirSync(join(ROOT, 'out', 'cli')).find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'))

  it('starts `help` without loading any module of the local sandbox', () => {
    expect(existsSync(join(ROOT, 'out', 'cli', 'main.js'))).toBe(true)
    const loaded = staticSources('main.js')
    expect(loaded).toContain('src-main/cli/usage.ts')
    expect(loaded.filter((s) => s.startsWith('src-main/local-sandbox/'))).toEqual([])
  })

  it("loads the sandbox's servers only when a command starts one (index.ts imports them lazily)", () => {
    for (const command of ['sandbox-command', 'journey-command']) {
      const chunk = chunkOf(command)
      expect(chunk, command).toBeDefined()
      const loaded = staticSources(chunk!)
      expect(loaded).toContain('src-main/local-sandbox/index.ts')
      expect(
        loaded.filter(
          (s) => s === 'src-main/local-sandbox/start-sandbox.ts' || /node_modules\/(koa|oidc-provider)\//.test(s),
        ),
      ).toEqual([])
    }
  })

  it('holds one MIME types table: koa’s, also for the content negotiation of the accepts it depends on', () => {
    const bundled = new Set(
      readdirSync(join(ROOT, 'out', 'cli'))
        .filter((f) => f.endsWith('.js'))
        .flatMap((f) =>
          [...readFileSync(join(ROOT, 'out', 'cli', f), 'utf8').matchAll(/^\/\/ (\S+)$/gm)].map((m) => m[1]!),
        ),
    )
    const tables = [...bundled].filter((s) => /node_modules\/(?:.*\/)?mime-db\/db\.json$/.test(s))
    expect(tables).toEqual(['node_modules/mime-db/db.json'])
    expect([...bundled].filter((s) => s.includes('node_modules/accepts/node_modules/'))).toEqual([])
    expect(bundled.has('node_modules/accepts/index.js')).toBe(true)
  })
})
