/**
 * ajv validators built ahead of time as standalone CommonJS modules (`out/validators/*.cjs`, written by
 * scripts/build-validators.ts), and loaded only when they were built from the very schema files on disk (the
 * module carries their SHA-256). Plumbing that the console's conformance lens and the local sandbox both use:
 * it holds no rule, only how a built module is written and read.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Ajv, ValidateFunction } from 'ajv'
import standaloneCodeModule from 'ajv/dist/standalone/index.js'

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

/**
 * The validators of the module at `file` (export name → function) when it exists and was built from files of
 * digest `digest`, else undefined (the caller compiles). Never throws: a module that cannot load is as good as
 * none. The module's `require` resolves from here, so the ajv runtime it needs is found wherever the code sits.
 */
export function loadStandaloneModule(file: string, digest: string): Map<string, ValidateFunction> | undefined {
  if (!existsSync(file)) return undefined
  try {
    const mod: Record<string, unknown> = {}
    new Function('exports', 'require', readFileSync(file, 'utf8'))(mod, createRequire(import.meta.url))
    if (mod[DIGEST] !== digest) return undefined
    return new Map(
      Object.entries(mod).filter((e): e is [string, ValidateFunction] => e[0] !== DIGEST && typeof e[1] === 'function'),
    )
  } catch {
    return undefined
  }
}
