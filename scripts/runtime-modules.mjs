#!/usr/bin/env node
// The packages the built command line still loads from node_modules at run time: out/cli bundles its
// dependencies, except those it loads lazily with createRequire(import.meta.url)("name") (pg for the
// PostgreSQL store, pdf-lib for statement PDFs, qrcode for the terminal login) and the externals of
// scripts/build-cli.mjs. This copies each such package, with the packages it depends on, from node_modules
// into out/runtime-modules/node_modules, so that a container image (Dockerfile) carries those alone.
// Run after scripts/build-cli.mjs; an optional dependency that is not installed (pg-native) is skipped.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const CLI = join(ROOT, 'out', 'cli')
const OUT = join(ROOT, 'out', 'runtime-modules', 'node_modules')

/**
 * The package names the bundle loads through createRequire at run time: `createRequire(import.meta.url)("…")`
 * in an ES module of out/cli, `createRequire)(__obImportMeta.url)("…")` in commands.cjs (scripts/build-cli.mjs
 * gives it `import.meta` as `__obImportMeta`).
 */
function lazilyRequired() {
  const names = new Set()
  const call = /createRequire\)?\((?:import\.meta|__obImportMeta)\.url\)\("([^"]+)"\)/g
  for (const file of readdirSync(CLI).filter((f) => f.endsWith('.js') || f.endsWith('.cjs')))
    for (const m of readFileSync(join(CLI, file), 'utf8').matchAll(call))
      names.add(m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0])
  return [...names].sort()
}

/** The folder of package `name` as Node resolves it from `fromDir`, or undefined. */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir || dir === dirname(ROOT)) return undefined
  }
}

const wanted = new Map()
const visit = (name, fromDir, optional) => {
  const dir = packageDir(name, fromDir)
  if (!dir) {
    if (optional) return
    throw new Error(`runtime-modules: ${name} is not installed (needed from ${relative(ROOT, fromDir) || '.'})`)
  }
  if (wanted.has(dir)) return
  wanted.set(dir, name)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false)
  for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true)
}
const roots = lazilyRequired()
if (roots.length === 0)
  throw new Error('runtime-modules: no createRequire(import.meta.url)("…") in out/cli: build it first')
for (const name of roots) visit(name, ROOT, false)

rmSync(dirname(OUT), { recursive: true, force: true })
// A package nested in another's node_modules comes with its parent's folder.
const top = [...wanted.keys()].filter((dir) => ![...wanted.keys()].some((p) => p !== dir && dir.startsWith(`${p}/`)))
for (const dir of top) cpSync(dir, join(OUT, relative(join(ROOT, 'node_modules'), dir)), { recursive: true })
process.stderr.write(
  `ob-console: copied ${wanted.size} packages (${roots.join(', ')} and theirs) into out/runtime-modules\n`,
)
