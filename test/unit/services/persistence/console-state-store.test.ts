import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createConsoleStateStore } from '../../../../src-main/services/persistence/console-state-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('console state store', () => {
  it("starts empty, keeps changes, and sees another writer's changes at the next read", () => {
    const path = join(dir, 'a.json')
    const a = createConsoleStateStore(path)
    const b = createConsoleStateStore(path)
    expect(a.read()).toEqual({ consents: [], currentClients: {}, psuAbsentCalls: {} })
    a.update((d) => {
      d.currentClients.env1 = 'c1'
    })
    b.update((d) => {
      d.psuAbsentCalls['k'] = [1]
    })
    expect(a.read()).toMatchObject({ currentClients: { env1: 'c1' }, psuAbsentCalls: { k: [1] } })
  })

  it('never overwrites a file that is not a state document: reading fails naming it', () => {
    const path = join(dir, 'b.json')
    writeFileSync(path, '{"consents": 3}')
    const s = createConsoleStateStore(path)
    expect(() => s.read()).toThrow(/b\.json is not a state document/)
    expect(() => s.update(() => undefined)).toThrow(/not a state document/)
  })
})
