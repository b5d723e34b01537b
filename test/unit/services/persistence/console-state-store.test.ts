import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import {
  createConsoleStateStore,
  replaceConsent,
  type ConsentRecord,
} from '../../../../src-main/services/persistence/console-state-store.ts'
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

  it('returns the changed document frozen, to read; read() shares it; a change that changes nothing writes nothing', async () => {
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
    // What read() answers is the same frozen document, shared by every reader: none can change it for another.
    expect(s.read()).toBe(after)
    expect(() => {
      ;(s.read().consents as unknown[]).push({})
    }).toThrow(TypeError)
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

  it('a change copies only the consent it replaces: the others stay the same frozen records; the same values again write nothing', async () => {
    const path = join(dir, 'consents.json')
    const s = createConsoleStateStore(path)
    const record = (i: number): ConsentRecord => ({
      consentId: `c-${i}`,
      kind: 'ais',
      clientId: 'client',
      environmentId: 'env',
      flowId: `flow-${i}`,
      createdAt: '2026-11-29T09:00:00.000Z',
      status: 'AwaitingAuthorisation',
    })
    const before = s.update((d) => {
      for (let i = 0; i < 500; i++) d.consents.push(record(i))
    })
    await s.flushed()
    const after = s.update((d) => {
      expect(
        replaceConsent(
          d,
          (c) => c.consentId === 'c-7',
          () => ({ status: 'Authorised' }),
        )?.status,
      ).toBe('Authorised')
      expect(
        replaceConsent(
          d,
          (c) => c.consentId === 'none',
          () => ({ status: 'Rejected' }),
        ),
      ).toBeUndefined()
    })
    expect(after.consents[7]).toEqual({ ...record(7), status: 'Authorised' })
    expect(Object.isFrozen(after.consents[7])).toBe(true)
    expect(after.consents.filter((c, i) => c !== before.consents[i]).map((c) => c.consentId)).toEqual(['c-7'])
    await s.flushed()
    const written = readFileSync(path, 'utf8')
    expect(JSON.parse(written).consents[7].status).toBe('Authorised')
    const again = s.update((d) => {
      replaceConsent(
        d,
        (c) => c.consentId === 'c-7',
        () => ({ status: 'Authorised' }),
      )
    })
    expect(again).toBe(after)
    await s.flushed()
    expect(readFileSync(path, 'utf8')).toBe(written)
  })
})
