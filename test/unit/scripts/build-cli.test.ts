import { readdirSync, readFileSync } from 'node:fs'
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
