import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createConsoleStateStore } from '../../../../src-main/services/persistence/console-state-store.ts'
import { manualGate, turns } from '../../../support/manual-gate.ts'

const dir = mkdtempSync(join(tmpdir(), 'state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('console state store', () => {
  it("starts empty, keeps changes, and sees another writer's changes at the next read once written", async () => {
    const path = join(dir, 'a.json')
    const a = createConsoleStateStore(path)
    const b = createConsoleStateStore(path)
    expect(a.read()).toEqual({ consents: [], currentClients: {}, psuAbsentCalls: {} })
    a.update((d) => {
      d.currentClients.env1 = 'c1'
    })
    await a.flushed()
    b.update((d) => {
      d.psuAbsentCalls['k'] = [1]
    })
    await b.flushed()
    expect(a.read()).toMatchObject({ currentClients: { env1: 'c1' }, psuAbsentCalls: { k: [1] } })
  })

  it('writes behind the caller: its own changes read at once, the newest document written once they settle', async () => {
    const path = join(dir, 'behind.json')
    const s = createConsoleStateStore(path)
    for (let i = 0; i < 20; i++)
      s.update((d) => {
        d.currentClients[`env${i}`] = `c${i}`
      })
    expect(Object.keys(s.read().currentClients)).toHaveLength(20)
    await s.flushed()
    const onDisk = JSON.parse(readFileSync(path, 'utf8')) as { currentClients: Record<string, string> }
    expect(Object.keys(onDisk.currentClients)).toHaveLength(20)
    expect(createConsoleStateStore(path).read().currentClients['env19']).toBe('c19')
  })

  it('writes in the quiet moments its gate gives, and flushed() hurries them', async () => {
    const path = join(dir, 'gate.json')
    const gate = manualGate()
    const s = createConsoleStateStore(path, { writeWhen: gate })
    s.update((d) => {
      d.currentClients.env1 = 'c1'
    })
    await turns()
    expect(gate.waits).toBe(1)
    expect(s.read().currentClients).toEqual({ env1: 'c1' })
    expect(() => readFileSync(path)).toThrow()
    gate.quiet()
    await vi.waitFor(() => expect(JSON.parse(readFileSync(path, 'utf8')).currentClients).toEqual({ env1: 'c1' }))
    s.update((d) => {
      d.currentClients.env2 = 'c2'
    })
    await turns()
    expect(JSON.parse(readFileSync(path, 'utf8')).currentClients).toEqual({ env1: 'c1' })
    await s.flushed()
    expect(gate.hurries).toBe(1)
    expect(JSON.parse(readFileSync(path, 'utf8')).currentClients).toEqual({ env1: 'c1', env2: 'c2' })
  })

  it('returns the changed document frozen, to read; read() gives a copy to change; a change that changes nothing writes nothing', async () => {
    const path = join(dir, 'frozen.json')
    const s = createConsoleStateStore(path)
    const after = s.update((d) => {
      d.currentClients.env1 = 'c1'
    })
    expect(after.currentClients).toEqual({ env1: 'c1' })
    expect(Object.isFrozen(after) && Object.isFrozen(after.currentClients)).toBe(true)
    expect(() => {
      ;(after.currentClients as Record<string, string>).env2 = 'c2'
    }).toThrow(TypeError)
    const copy = s.read()
    copy.currentClients.env2 = 'c2'
    expect(s.read().currentClients).toEqual({ env1: 'c1' })
    await s.flushed()
    const written = readFileSync(path, 'utf8')
    const same = s.update((d) => {
      d.currentClients.env1 = 'c1'
    })
    expect(same).toBe(after)
    await s.flushed()
    expect(readFileSync(path, 'utf8')).toBe(written)
  })

  it('keeps a change whose write failed, tells onWriteError, and writes it with the next change', async () => {
    const folder = join(dir, 'blocked')
    const path = join(folder, 'state.json')
    const errors: string[] = []
    const s = createConsoleStateStore(path, { onWriteError: (err) => errors.push(err.message) })
    s.update((d) => {
      d.currentClients.env1 = 'c1'
    })
    // The file's place taken by a folder while the write is on its way: the rename over it fails.
    mkdirSync(path)
    await s.flushed()
    expect(errors).toHaveLength(1)
    expect(s.read().currentClients).toEqual({ env1: 'c1' })
    rmSync(path, { recursive: true })
    s.update((d) => {
      d.currentClients.env2 = 'c2'
    })
    await s.flushed()
    expect(createConsoleStateStore(path).read().currentClients).toEqual({ env1: 'c1', env2: 'c2' })
  })

  it('never overwrites a file that is not a state document: reading fails naming it', () => {
    const path = join(dir, 'b.json')
    writeFileSync(path, '{"consents": 3}')
    const s = createConsoleStateStore(path)
    expect(() => s.read()).toThrow(/b\.json is not a state document/)
    expect(() => s.update(() => undefined)).toThrow(/not a state document/)
  })
})
