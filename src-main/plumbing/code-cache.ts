/**
 * V8's code cache of a script, kept in a file: the compiled code V8 would otherwise make again on every start.
 * Plumbing (it holds no rule) for the built validator modules (`plumbing/standalone-validators.ts`) and the
 * built command line's commands (`out/cli/commands.cjs`, loaded by {@link requireWithCodeCache}).
 *
 * A cache file's first line is JSON saying what it was made from: V8's version and the caller's key (the
 * script's SHA-256, or its size and modification time). It is read back only when both match; V8 itself then
 * refuses a cache made with other flags (`Script.cachedDataRejected`), and the script compiles from its text.
 */
import { readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { Script, constants } from 'node:vm'
import { writeFileAtomic } from './atomic-file.ts'

/** What a cache was made from besides V8's version: the caller's choice of fields. */
export type CodeCacheKey = Readonly<Record<string, string | number>>

const headerOf = (key: CodeCacheKey): Record<string, string | number> => ({ v8: process.versions.v8, ...key })

/** The cached code in `cacheFile` when it was made by this V8 from what `key` names, else undefined. */
export function readCodeCacheFile(cacheFile: string, key: CodeCacheKey): Buffer | undefined {
  try {
    const bytes = readFileSync(cacheFile)
    const eol = bytes.indexOf(0x0a)
    if (eol < 0) return undefined
    const header = JSON.parse(bytes.subarray(0, eol).toString('utf8')) as Record<string, unknown>
    const wanted = headerOf(key)
    const names = Object.keys(wanted)
    if (Object.keys(header).length !== names.length || names.some((n) => header[n] !== wanted[n])) return undefined
    return bytes.subarray(eol + 1)
  } catch {
    return undefined
  }
}

/** Writes `data` (a `Script`'s `createCachedData()`) to `cacheFile` under its header, whole or not at all. */
export function writeCodeCacheFile(cacheFile: string, key: CodeCacheKey, data: Buffer): void {
  writeFileAtomic(cacheFile, Buffer.concat([Buffer.from(`${JSON.stringify(headerOf(key))}\n`), data]), {
    mode: 0o644,
    backup: false,
  })
}

/** How {@link requireWithCodeCache} compiled the file: from the cache, or from its text (no cache, or refused). */
export type CompiledFrom = 'code cache' | 'text'

/** A CommonJS file run by {@link requireWithCodeCache}. */
export interface CodeCachedModule {
  exports: unknown
  compiledFrom: CompiledFrom
  /**
   * Writes the cache of the file as compiled so far (every function run until now) to the cache file; false
   * when it could not (no cache file given, a read-only or full disk), which is no error: the next run
   * compiles from the text.
   */
  writeCache(): boolean
}

/**
 * Runs the CommonJS file `file` as Node's `require` would (with its own `module`, `exports`, `require`,
 * `__filename` and `__dirname`) and returns its exports.
 *
 * It is compiled from the code cache in `cacheFile` when one was made by this V8 from this very file (its size
 * and modification time: a rebuilt file is never served the cache of the one before). Without such a cache,
 * one is written when the process exits with code 0: made then, it holds every function the run compiled, not
 * only the top level, so the next run of the same command compiles almost nothing. A failed run writes none
 * (its cache would lack what a working run needs). `cacheFile` undefined: no cache is read or written.
 */
export function requireWithCodeCache(file: string, cacheFile: string | undefined): CodeCachedModule {
  const code = readFileSync(file, 'utf8')
  const { size, mtimeMs } = statSync(file)
  const key = { size, mtimeMs }
  const cachedData = cacheFile ? readCodeCacheFile(cacheFile, key) : undefined
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // An import() left in the file (of a package kept out of it) resolves as it would in any module.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const writeCache = (): boolean => {
    if (!cacheFile) return false
    try {
      writeCodeCacheFile(cacheFile, key, script.createCachedData())
      return true
    } catch {
      return false
    }
  }
  const compiledFrom: CompiledFrom = cachedData && !script.cachedDataRejected ? 'code cache' : 'text'
  if (cacheFile && compiledFrom === 'text') process.once('exit', (exitCode) => exitCode === 0 && writeCache())
  const mod = { exports: {} as unknown }
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void
  run(mod.exports, createRequire(file), mod, file, dirname(file))
  return { exports: mod.exports, compiledFrom, writeCache }
}
