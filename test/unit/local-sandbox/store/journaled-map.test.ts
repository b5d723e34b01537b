import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JournaledMap, journalPathOf } from '../../../../src-main/local-sandbox/store/journaled-map.ts'

let dir: string
let path: string
let journal: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ob-journaled-map-'))
  path = join(dir, 'state', 'things.json')
  journal = journalPathOf(path)
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const read = (p: string) => readFileSync(p, 'utf8')
const lines = (p: string) =>
  read(p)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown)
const contents = <V>(m: JournaledMap<V>) => Object.fromEntries(m.entries)

describe('JournaledMap', () => {
  it('puts every change on disk at once, as one journal line, without rewriting the snapshot', () => {
    expect(journal).toBe(join(dir, 'state', 'things.journal.jsonl'))
    const m = new JournaledMap<{ n: number }>(path)
    m.set('a', { n: 1 })
    m.set('b', { n: 2 })
    expect(m.delete('a')).toBe(true)
    expect(m.delete('never-there')).toBe(false)
    expect(lines(journal)).toEqual([['a', { n: 1 }], ['b', { n: 2 }], ['a']])
    expect(existsSync(path)).toBe(false)
    // Another process reading the data directory now (as a restart would) sees every change.
    expect(contents(new JournaledMap(path))).toEqual({ b: { n: 2 } })
  })

  it('folds the journal into the snapshot on load: same JSON object as before, journal removed', () => {
    const m = new JournaledMap<string>(path)
    m.set('x', 'one')
    m.set('x', 'two')
    const reopened = new JournaledMap<string>(path)
    expect(contents(reopened)).toEqual({ x: 'two' })
    expect(JSON.parse(read(path))).toEqual({ x: 'two' })
    expect(existsSync(journal)).toBe(false)
  })

  it('reads a snapshot written before journals existed, untouched', () => {
    writeFileSync(join(dir, 'old.json'), JSON.stringify({ k: { v: 1 } }))
    const before = read(join(dir, 'old.json'))
    expect(contents(new JournaledMap(join(dir, 'old.json')))).toEqual({ k: { v: 1 } })
    expect(read(join(dir, 'old.json'))).toBe(before)
  })

  it('compacts once the journal outgrows the minimum and the snapshot, dropping what keep refuses', () => {
    const m = new JournaledMap<number>(path, { compactMinBytes: 200, keep: (v) => v >= 0 })
    m.set('gone', -1)
    for (let i = 0; i < 40 && existsSync(path) === false; i++) m.set(`k${i}`, i)
    expect(existsSync(path)).toBe(true)
    expect(existsSync(journal)).toBe(false)
    const snapshot = JSON.parse(read(path)) as Record<string, number>
    expect(snapshot.gone).toBeUndefined()
    expect(m.get('gone')).toBeUndefined()
    expect(Object.keys(snapshot).length).toBeGreaterThan(5)
    m.set('after', 7)
    expect(lines(journal)).toEqual([['after', 7]])
    expect(contents(new JournaledMap(path))).toEqual({ ...snapshot, after: 7 })
  })

  it('forget drops an entry from memory only; the next snapshot leaves it out through keep', () => {
    const m = new JournaledMap<number>(path, { keep: (v) => v > 0 })
    m.set('a', 0)
    m.forget('a')
    expect(m.get('a')).toBeUndefined()
    expect(lines(journal)).toEqual([['a', 0]])
    expect(contents(new JournaledMap<number>(path, { keep: (v) => v > 0 }))).toEqual({})
  })

  it('ignores an append cut short by a crash (the last line without its newline)', () => {
    const m = new JournaledMap<number>(path)
    m.set('a', 1)
    appendFileSync(journal, '["b",')
    expect(contents(new JournaledMap(path))).toEqual({ a: 1 })
  })

  it('replays a journal already folded into the snapshot (a crash between rename and removal) to the same state', () => {
    const m = new JournaledMap<number>(path)
    m.set('a', 1)
    m.delete('a')
    m.set('b', 2)
    const journalText = read(journal)
    new JournaledMap<number>(path) // compacts: snapshot {b: 2}, journal removed
    writeFileSync(journal, journalText)
    expect(contents(new JournaledMap(path))).toEqual({ b: 2 })
  })

  it('refuses a corrupt journal line, naming the file and the line', () => {
    const m = new JournaledMap<number>(path)
    m.set('a', 1)
    appendFileSync(journal, 'not json\n["c",3]\n')
    expect(() => new JournaledMap(path)).toThrow(`${journal} line 2 is not valid JSON`)
    writeFileSync(journal, '{"a":1}\n')
    expect(() => new JournaledMap(path)).toThrow(`${journal} line 1 is not a change ([key, value] or [key])`)
    // Nothing was overwritten.
    expect(read(journal)).toBe('{"a":1}\n')
  })

  it('refuses a corrupt snapshot, naming it', () => {
    writeFileSync(join(dir, 'bad.json'), '{')
    expect(() => new JournaledMap(join(dir, 'bad.json'))).toThrow(`${join(dir, 'bad.json')} is not valid JSON`)
  })
})
