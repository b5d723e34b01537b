/**
 * ajv validators built ahead of time as standalone CommonJS modules (`out/validators/*.cjs`, written by
 * scripts/build-validators.ts), and loaded only when they were built from the very schema files on disk (the
 * module carries their SHA-256). Plumbing that the console's conformance lens and the local sandbox both use:
 * it holds no rule, only how a built module is written and read.
 *
 * Beside each module the build writes V8's code cache of it (`<module>.v8cache`): compiling the lens's AIS
 * module (1.8 MB of code) took 25-40 ms of every command that checks an answer, reading it back from the
 * cache 2-3 ms. The cache is taken only for the module text it was made from (its SHA-256) and by the V8
 * version that made it; any other (another Node, Electron's V8, a cache cut short) is compiled as before.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Script } from 'node:vm'
import type { Ajv, ValidateFunction } from 'ajv'
import standaloneCodeModule from 'ajv/dist/standalone/index.js'
import { readCodeCacheFile, writeCodeCacheFile } from './code-cache.ts'

const standaloneCode = standaloneCodeModule.default
const DIGEST = '__sourceSha256'

/** The SHA-256 (hex) of schema files' texts, in the order given. */
export function sourceDigest(...texts: string[]): string {
  const hash = createHash('sha256')
  texts.forEach((t, i) => hash.update(i ? `\n${t}` : t))
  return hash.digest('hex')
}

/** The module's code: one export per `refs` entry (export name → schema ref in `ajv`), and the digest. */
export function standaloneModule(ajv: Ajv, refs: Record<string, string>, digest: string): string {
  return `${standaloneCode(ajv, refs)}\nexports.${DIGEST} = ${JSON.stringify(digest)};\n`
}

/** Where the code cache of the module at `file` is kept. */
export const codeCacheFile = (file: string): string => `${file}.v8cache`

/** The module's code as a script: a function of CommonJS's `exports` and `require`, as `new Function` makes it. */
function moduleScript(file: string, code: string, cachedData?: Buffer): Script {
  return new Script(`(function (exports, require) {${code}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  })
}

const runModule = (script: Script, exportsOf: Record<string, unknown>): void =>
  (script.runInThisContext() as (e: Record<string, unknown>, r: NodeJS.Require) => void)(
    exportsOf,
    createRequire(import.meta.url),
  )

/**
 * Writes the code cache of the module at `file` (built by this process's V8), after running it once so that
 * its top-level code is in the cache too. Returns the cache's file.
 */
export function writeCodeCache(file: string): string {
  const code = readFileSync(file, 'utf8')
  const script = moduleScript(file, code)
  runModule(script, {})
  const out = codeCacheFile(file)
  writeCodeCacheFile(out, { moduleSha256: sourceDigest(code) }, script.createCachedData())
  return out
}

/** The cached code of `code` (the module at `file`) when its cache was made from this text by this V8. */
export const readCodeCache = (file: string, code: string): Buffer | undefined =>
  readCodeCacheFile(codeCacheFile(file), { moduleSha256: sourceDigest(code) })

/** How the last module loaded was compiled: from its code cache, or from its text. */
let lastCompile: 'code cache' | 'text' | undefined
export const lastStandaloneCompile = (): 'code cache' | 'text' | undefined => lastCompile

/**
 * The validators of the module at `file` (export name → function) when it exists and was built from files of
 * digest `digest`, else undefined (the caller compiles). Never throws: a module that cannot load is as good as
 * none. The module's `require` resolves from here, so the ajv runtime it needs is found wherever the code sits.
 */
export function loadStandaloneModule(file: string, digest: string): Map<string, ValidateFunction> | undefined {
  if (!existsSync(file)) return undefined
  try {
    const code = readFileSync(file, 'utf8')
    const cached = readCodeCache(file, code)
    const script = moduleScript(file, code, cached)
    lastCompile = cached && !script.cachedDataRejected ? 'code cache' : 'text'
    const mod: Record<string, unknown> = {}
    runModule(script, mod)
    if (mod[DIGEST] !== digest) return undefined
    return new Map(
      Object.entries(mod).filter((e): e is [string, ValidateFunction] => e[0] !== DIGEST && typeof e[1] === 'function'),
    )
  } catch {
    return undefined
  }
}
