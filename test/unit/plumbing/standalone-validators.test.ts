import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  codeCacheFile,
  lastStandaloneCompile,
  loadStandaloneModule,
  readCodeCache,
  sourceDigest,
  standaloneModule,
  writeCodeCache,
} from '../../../src-main/plumbing/standalone-validators.ts'

const DIGEST = sourceDigest('the schemas of this test')

/**
 * The module and cache of `file` copied to a new name: V8 keeps what it compiled in this process by text and
 * name, and would not read a cache for a text and name it compiled already.
 */
function copied(file: string, to: string, cache: Uint8Array = readFileSync(codeCacheFile(file))): string {
  writeFileSync(to, readFileSync(file))
  writeFileSync(codeCacheFile(to), cache)
  return to
}

/** A built module of two validators, written to `file`. */
function writeModule(file: string, minimum = 1): void {
  const ajv = new Ajv({ code: { source: true } })
  ajv.addSchema({ $id: 'urn:t:count', type: 'integer', minimum })
  ajv.addSchema({ $id: 'urn:t:named', type: 'object', required: ['name'] })
  writeFileSync(file, standaloneModule(ajv, { count: 'urn:t:count', named: 'urn:t:named' }, DIGEST))
}

describe('a standalone validators module and its code cache', () => {
  let dir: string
  let file: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ob-standalone-'))
    file = join(dir, 'module.cjs')
    writeModule(file)
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('loads from the code cache the build wrote, with the same validators', () => {
    expect(loadStandaloneModule(file, DIGEST)?.get('count')?.(2)).toBe(true)
    expect(lastStandaloneCompile()).toBe('text')
    writeCodeCache(file)
    const loaded = loadStandaloneModule(copied(file, join(dir, 'copy.cjs')), DIGEST)!
    expect(lastStandaloneCompile()).toBe('code cache')
    expect([...loaded.keys()].sort()).toEqual(['count', 'named'])
    expect([loaded.get('count')!(2), loaded.get('count')!(0), loaded.get('count')!('2')]).toEqual([true, false, false])
    expect([loaded.get('named')!({ name: 'x' }), loaded.get('named')!({})]).toEqual([true, false])
  })

  it('compiles the text when the cache was made from other code, even of the same length', () => {
    writeCodeCache(file)
    const text = readFileSync(file, 'utf8')
    writeModule(file, 5)
    expect(readFileSync(file, 'utf8')).toHaveLength(text.length)
    expect(readCodeCache(file, readFileSync(file, 'utf8'))).toBeUndefined()
    const loaded = loadStandaloneModule(file, DIGEST)!
    expect(lastStandaloneCompile()).toBe('text')
    // The validator is the new text's (minimum 5), not the cached code's (minimum 1).
    expect([loaded.get('count')!(2), loaded.get('count')!(5)]).toEqual([false, true])
  })

  it('compiles the text when the cache is another V8’s, cut short, or not a cache', () => {
    writeCodeCache(file)
    const bytes = readFileSync(codeCacheFile(file))
    const eol = bytes.indexOf(0x0a)
    const header = JSON.parse(bytes.subarray(0, eol).toString()) as { v8: string }
    const other = Buffer.from(`${JSON.stringify({ ...header, v8: `${header.v8}-other` })}\n`)
    const cases: Array<[string, Buffer]> = [
      ['another V8', Buffer.concat([other, bytes.subarray(eol + 1)])],
      ['cut short', bytes.subarray(0, eol + 1 + Math.floor((bytes.length - eol) / 3))],
      ['no header', bytes.subarray(eol + 1)],
      ['empty', Buffer.alloc(0)],
    ]
    for (const [i, [name, content]] of cases.entries()) {
      const loaded = loadStandaloneModule(copied(file, join(dir, `case-${i}.cjs`), content), DIGEST)
      expect(lastStandaloneCompile(), name).toBe('text')
      expect(loaded?.get('count')?.(3), name).toBe(true)
    }
  })

  it('is refused when built from other schemas, and a module that does not run is as good as none', () => {
    writeCodeCache(file)
    expect(loadStandaloneModule(file, sourceDigest('other schemas'))).toBeUndefined()
    writeFileSync(file, 'throw new Error("broken")')
    expect(loadStandaloneModule(file, DIGEST)).toBeUndefined()
    expect(loadStandaloneModule(join(dir, 'missing.cjs'), DIGEST)).toBeUndefined()
  })
})
