import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readCodeCacheFile, requireWithCodeCache, writeCodeCacheFile } from '../../../src-main/plumbing/code-cache.ts'

/** A CommonJS file that uses what require gives a module, and a function compiled only when called. */
const MODULE = `
const { basename } = require('node:path')
const sibling = require('./sibling.cjs')
exports.where = () => [basename(__filename), basename(__dirname) === basename(require('node:path').dirname(__filename))]
module.exports.total = (xs) => xs.reduce((a, b) => a + sibling.twice(b), 0)
`

interface Loaded {
  where(): [string, boolean]
  total(xs: number[]): number
}

describe('requireWithCodeCache', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ob-code-cache-'))
    writeFileSync(join(dir, 'sibling.cjs'), 'exports.twice = (n) => 2 * n\n')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  /**
   * The file `name` with MODULE's text, its modification time `mtime` (seconds). V8 keeps what it compiled in
   * this process by text and name, and would not read a cache for a text and name it compiled already: each
   * load below is of a new name, with the modification time of the file the cache was made from.
   */
  function file(name: string, mtime = 1_700_000_000, text = MODULE): string {
    const f = join(dir, name)
    writeFileSync(f, text)
    utimesSync(f, mtime, mtime)
    return f
  }

  it('runs the file as require would: its exports, its require (from its folder), __filename and __dirname', () => {
    const loaded = requireWithCodeCache(file('a.cjs'), undefined)
    const m = loaded.exports as Loaded
    expect(m.where()).toEqual(['a.cjs', true])
    expect(m.total([1, 2, 3])).toBe(12)
    expect(loaded.compiledFrom).toBe('text')
    expect(loaded.writeCache()).toBe(false)
  })

  it("keeps the file's own 'use strict' directive: a write to a frozen object throws", () => {
    const strict = file(
      'strict.cjs',
      1_700_000_000,
      `'use strict'\nexports.set = () => { Object.freeze({ a: 1 }).a = 2 }\n`,
    )
    expect(() => (requireWithCodeCache(strict, undefined).exports as { set(): void }).set()).toThrow(TypeError)
  })

  it('reads back the cache it wrote for the same file (size and modification time), with the same exports', () => {
    const cache = join(dir, 'cache', 'a.v8cache')
    const first = requireWithCodeCache(file('a.cjs'), cache)
    expect(first.compiledFrom).toBe('text')
    expect((first.exports as Loaded).total([1])).toBe(2)
    expect(first.writeCache()).toBe(true)
    const header = readFileSync(cache, 'utf8').split('\n')[0]!
    expect(JSON.parse(header)).toEqual({
      v8: process.versions.v8,
      size: Buffer.byteLength(MODULE),
      mtimeMs: statSync(join(dir, 'a.cjs')).mtimeMs,
    })

    const second = requireWithCodeCache(file('b.cjs'), cache)
    expect(second.compiledFrom).toBe('code cache')
    expect((second.exports as Loaded).total([4, 5])).toBe(18)
    expect((second.exports as Loaded).where()).toEqual(['b.cjs', true])
  })

  it('compiles the text when the file was rebuilt (another modification time, or another size)', () => {
    const cache = join(dir, 'a.v8cache')
    requireWithCodeCache(file('a.cjs'), cache).writeCache()
    expect(requireWithCodeCache(file('b.cjs', 1_700_000_001), cache).compiledFrom).toBe('text')
    const longer = requireWithCodeCache(file('c.cjs', 1_700_000_000, `${MODULE}\n// one more line\n`), cache)
    expect(longer.compiledFrom).toBe('text')
    expect((longer.exports as Loaded).total([1, 1])).toBe(4)
  })

  it("compiles the text from another V8's cache, a cache cut short, and a file with no header", () => {
    const cache = join(dir, 'a.v8cache')
    requireWithCodeCache(file('a.cjs'), cache).writeCache()
    const bytes = readFileSync(cache)
    const eol = bytes.indexOf(0x0a)
    const header = JSON.parse(bytes.subarray(0, eol).toString('utf8')) as Record<string, unknown>

    writeFileSync(
      cache,
      Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, v8: '1.0.0' })}\n`), bytes.subarray(eol + 1)]),
    )
    expect(requireWithCodeCache(file('b.cjs'), cache).compiledFrom).toBe('text')

    // The header says this file; V8 refuses the cut payload itself.
    writeFileSync(cache, bytes.subarray(0, eol + 1 + Math.floor((bytes.length - eol - 1) / 2)))
    const cut = requireWithCodeCache(file('c.cjs'), cache)
    expect(cut.compiledFrom).toBe('text')
    expect((cut.exports as Loaded).total([3])).toBe(6)

    writeFileSync(cache, bytes.subarray(eol + 1))
    expect(requireWithCodeCache(file('d.cjs'), cache).compiledFrom).toBe('text')
  })

  it('gives no error when the cache cannot be written, and the file still runs', () => {
    writeFileSync(join(dir, 'not-a-folder'), 'x')
    const loaded = requireWithCodeCache(file('a.cjs'), join(dir, 'not-a-folder', 'a.v8cache'))
    expect(loaded.writeCache()).toBe(false)
    expect((loaded.exports as Loaded).total([2])).toBe(4)
  })
})

describe('readCodeCacheFile and writeCodeCacheFile', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ob-code-cache-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('give back the bytes written under the same key only: no field more, none less, none changed', () => {
    const cache = join(dir, 'sub', 'x.v8cache')
    const data = Buffer.from([1, 2, 3, 10, 4])
    writeCodeCacheFile(cache, { moduleSha256: 'abc' }, data)
    expect(readCodeCacheFile(cache, { moduleSha256: 'abc' })).toEqual(data)
    expect(readCodeCacheFile(cache, { moduleSha256: 'abd' })).toBeUndefined()
    expect(readCodeCacheFile(cache, { moduleSha256: 'abc', size: 3 })).toBeUndefined()
    expect(readCodeCacheFile(cache, {})).toBeUndefined()
    expect(readCodeCacheFile(join(dir, 'none.v8cache'), { moduleSha256: 'abc' })).toBeUndefined()
    copyFileSync(cache, join(dir, 'junk.v8cache'))
    writeFileSync(join(dir, 'junk.v8cache'), 'not json\nxyz')
    expect(readCodeCacheFile(join(dir, 'junk.v8cache'), { moduleSha256: 'abc' })).toBeUndefined()
    expect(existsSync(`${cache}.bak`)).toBe(false)
  })
})
