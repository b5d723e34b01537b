import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { FlowState } from '../../../../src-main/contract/flows.ts'
import { isAppError } from '../../../../src-main/core/app-error.ts'
import {
  createFlowHistoryStore,
  FLOW_HISTORY_MAX_OUTPUT_CHARS,
} from '../../../../src-main/services/persistence/flow-history-store.ts'
import { manualGate, turns } from '../../../support/manual-gate.ts'

const dir = mkdtempSync(join(tmpdir(), 'flow-history-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const flow = (id: string, createdAt: string, extra: Partial<FlowState> = {}): FlowState => ({
  id,
  kind: 'ais',
  environmentId: 'local-sandbox',
  createdAt,
  steps: [{ id: 'consent', title: 'Consent', explanation: 'x', status: 'done', exchangeIds: ['e1'], checks: [] }],
  ...extra,
})

describe('flow history store', () => {
  it('keeps flows across instances (a restart), their createdAt as made, the oldest dropped past the bound', async () => {
    const path = join(dir, 'a')
    const a = createFlowHistoryStore(path, { max: 3 })
    for (let i = 1; i <= 5; i++) a.put(flow(`f${i}`, `2026-01-0${i}T10:00:00.000Z`))
    await a.flushed()
    expect(readdirSync(path).sort()).toEqual(['f3.json', 'f4.json', 'f5.json'])
    const b = createFlowHistoryStore(path, { max: 3 })
    expect(b.read().map((f) => [f.id, f.createdAt])).toEqual([
      ['f3', '2026-01-03T10:00:00.000Z'],
      ['f4', '2026-01-04T10:00:00.000Z'],
      ['f5', '2026-01-05T10:00:00.000Z'],
    ])
    b.put(flow('f4', '2026-01-04T10:00:00.000Z', { steps: [] }))
    await b.flushed()
    expect(a.read().find((f) => f.id === 'f4')?.steps).toEqual([])
    expect(a.get('f4')?.steps).toEqual([])
    expect(a.get('f1')).toBeUndefined()
    expect(a.read()).toHaveLength(3)
  })

  it('writes in the quiet moments its gate gives, and flushed() hurries them', async () => {
    const path = join(dir, 'gate')
    const gate = manualGate()
    const s = createFlowHistoryStore(path, { writeWhen: gate })
    s.put(flow('g1', '2026-01-01T10:00:00.000Z'))
    s.put(flow('g2', '2026-01-01T10:00:01.000Z'))
    await turns()
    expect(gate.waits).toBe(1)
    expect(s.read().map((f) => f.id)).toEqual(['g1', 'g2']) // read from memory meanwhile
    expect(() => readdirSync(path)).toThrow() // nothing on disk yet: not even the folder
    gate.quiet()
    await vi.waitFor(() => expect(readdirSync(path).sort()).toEqual(['g1.json', 'g2.json']))
    // A later put waits for the next quiet moment; flushed() does not wait for it.
    s.put(flow('g3', '2026-01-01T10:00:02.000Z'))
    await turns()
    expect(readdirSync(path)).not.toContain('g3.json')
    await s.flushed()
    expect(gate.hurries).toBe(1)
    expect(readdirSync(path)).toContain('g3.json')
    await s.flushed() // nothing left to write: nothing hurried
    expect(gate.hurries).toBe(1)
  })

  it('writes behind the caller: a flow is read at once, its newest state written once, one file per flow', async () => {
    const path = join(dir, 'e')
    const s = createFlowHistoryStore(path)
    for (let i = 0; i < 50; i++) s.put(flow(`f${i}`, `2026-01-01T10:00:${String(i).padStart(2, '0')}.000Z`))
    expect(s.read()).toHaveLength(50) // before any file is written
    await s.flushed()
    const before = new Map(readdirSync(path).map((n) => [n, readFileSync(join(path, n), 'utf8')]))
    expect(before.size).toBe(50)
    for (let i = 0; i < 5; i++) s.put(flow('f7', '2026-01-01T10:00:07.000Z', { steps: [], clientId: `run ${i}` }))
    expect(s.get('f7')?.clientId).toBe('run 4')
    await s.flushed()
    const changed = readdirSync(path).filter((n) => readFileSync(join(path, n), 'utf8') !== before.get(n))
    expect(changed).toEqual(['f7.json'])
    expect(createFlowHistoryStore(path).get('f7')?.clientId).toBe('run 4')
    s.put(flow('../x/..', '2026-01-02T00:00:00.000Z'))
    await s.flushed()
    expect(readdirSync(path)).toContain('%2E%2E%2Fx%2F%2E%2E.json')
    expect(createFlowHistoryStore(path).read().at(-1)?.id).toBe('../x/..')
  })

  it('a flow that cannot be written is reported and stays listed from memory', async () => {
    const path = join(dir, 'f')
    writeFileSync(path, 'a file where the folder should be')
    const failures: string[] = []
    const s = createFlowHistoryStore(path, { onWriteError: (id, err) => failures.push(`${id}: ${err.message}`) })
    s.put(flow('f1', '2026-01-01T00:00:00.000Z'))
    await s.flushed()
    expect(failures).toEqual([expect.stringMatching(/^f1: .*(EEXIST|ENOTDIR)/)])
    expect(s.get('f1')?.id).toBe('f1')
  })

  it('keeps no secret handles, waits or outputs over the cap', async () => {
    const path = join(dir, 'b')
    const s = createFlowHistoryStore(path)
    const big = 'x'.repeat(FLOW_HISTORY_MAX_OUTPUT_CHARS + 1)
    s.put(
      flow('f1', '2026-01-01T00:00:00.000Z', {
        awaiting: { stepId: 'sca', redirectUri: 'https://tpp/cb', state: 'st' },
        steps: [
          {
            id: 'transactions',
            title: 'T',
            explanation: 'x',
            status: 'running',
            exchangeIds: [],
            checks: [],
            output: { rows: big },
            secrets: [
              {
                ref: 'r1',
                kind: 'token',
                name: 'access_token',
                where: 'step x',
                shown: '••••',
                revealed: false,
                revealable: true,
              },
            ],
          },
        ],
      }),
    )
    await s.flushed()
    const [kept] = s.read()
    expect(kept!.awaiting).toBeUndefined()
    expect(kept!.steps[0]).not.toHaveProperty('secrets')
    expect(kept!.steps[0]!.status).toBe('idle')
    expect(kept!.steps[0]!.output).toEqual({ omitted: expect.stringMatching(/not kept in the flow history/) })
    expect(readFileSync(join(path, 'f1.json'), 'utf8')).not.toContain(big.slice(0, 1000))
  })

  it('refuses a corrupt file with STORE_ERROR naming it and its fix, and never overwrites it', async () => {
    const path = join(dir, 'c')
    const s = createFlowHistoryStore(path)
    s.put(flow('f1', '2026-01-01T00:00:00.000Z'))
    s.put(flow('f2', '2026-01-02T00:00:00.000Z'))
    await s.flushed()
    const file = join(path, 'f2.json')
    writeFileSync(file, '{"version": 1, "flow": {')
    let caught: unknown
    try {
      s.read()
    } catch (err) {
      caught = err
    }
    expect(isAppError(caught) && caught.code).toBe('STORE_ERROR')
    expect((caught as Error).message).toContain(`${file} is not JSON`)
    expect(isAppError(caught) && caught.fix).toMatch(/move the file aside/)
    expect(() => s.put(flow('f2', '2026-01-02T00:00:00.000Z'))).toThrow(/not JSON/)
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "flow": {')
    // Moved aside, the other flows are listed again.
    rmSync(file)
    expect(s.read().map((f) => f.id)).toEqual(['f1'])
  })

  it('refuses a file of a newer version, and one that holds no flow', async () => {
    const path = join(dir, 'd')
    const s = createFlowHistoryStore(path)
    s.put(flow('f1', '2026-01-01T00:00:00.000Z'))
    await s.flushed()
    writeFileSync(join(path, 'f1.json'), JSON.stringify({ version: 2, flow: {} }))
    expect(() => createFlowHistoryStore(path).read()).toThrow(/of version 2/)
    writeFileSync(join(path, 'f1.json'), JSON.stringify({ version: 1, flow: { id: 'f1' } }))
    expect(() => createFlowHistoryStore(path).get('f1')).toThrow(/is not a kept flow/)
  })
})
