import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleRuntime, type ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { freshRuntime, ok, registeredClient, startFlow } from './journey-support.ts'

/** Every form a secret could take in a file: as it is, base64, base64url, URL-encoded, JSON-escaped. */
function encodings(value: string): string[] {
  const b = Buffer.from(value, 'utf8')
  return [value, b.toString('base64'), b.toString('base64url'), encodeURIComponent(value), JSON.stringify(value)]
}

describe('the flow history: flows kept masked across a restart, paged, not run again; the PSU-absent budget and consent expiry on the sandbox clock', () => {
  let rt: ConsoleRuntime

  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('an AIS run is kept with no token or code in the file, paged newest first, and restored after a restart with its creation time', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const input = {
      kind: 'ais' as const,
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic', 'ReadBalances'],
      psuPresent: false,
      capture: 'headless' as const,
      authorisationUrlFrom: 'request-object' as const,
      expirationDateTime: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }
    const ran = await startFlow(h, input)
    const done = ok(await h['flows.runAll']({ flowId: ran.id }))
    expect(done.steps.every((s) => s.status === 'done' || s.status === 'skipped')).toBe(true)

    // The run's secrets, revealed from the live run: none of them is in the history file, in any encoding.
    const refs = done.steps.flatMap((s) => s.secrets ?? []).filter((i) => i.revealable)
    expect(refs.map((r) => r.kind)).toEqual(expect.arrayContaining(['token', 'code']))
    const values = await Promise.all(
      refs.map(async (r) => ok(await h['secrets.reveal']({ flowId: ran.id, ref: r.ref }))),
    )
    await rt.services.history.flushed() // written behind the steps
    const file = readFileSync(join(rt.dataDir, 'store', 'flows', `${ran.id}.json`), 'utf8')
    expect(file).toContain(ran.id)
    for (const { value } of values) for (const form of encodings(value)) expect(file).not.toContain(form)

    // Three more flows, started one after the other: pages of two, newest first, with a cursor.
    const others: FlowState[] = []
    for (let i = 0; i < 3; i++) {
      others.push(await startFlow(h, input))
      await new Promise((r) => setTimeout(r, 5)) // distinct creation times
    }
    const first = ok(await h['flows.list']({ limit: 2 }))
    expect(first.flows.map((f) => f.id)).toEqual([others[2]!.id, others[1]!.id])
    expect(first.more).toBe(2)
    const second = ok(await h['flows.list']({ limit: 2, before: first.next! }))
    expect(second.flows.map((f) => f.id)).toEqual([others[0]!.id, ran.id])
    expect(second).toMatchObject({ more: 0 })
    expect(second.next).toBeUndefined()
    expect((await h['flows.list']({ before: 'not a cursor' })).ok).toBe(false)

    // A restart on the same data directory: the flows come back from the history, as made, marked restored.
    await rt.services.history.flushed()
    const again = await createConsoleRuntime({
      host: 'web',
      dataDir: rt.dataDir,
      loopbackPort: 0,
      log: () => undefined,
    })
    try {
      const page = ok(await again.handlers['flows.list']({}))
      expect(page.flows.map((f) => [f.id, f.createdAt, f.restored])).toEqual(
        [...others]
          .reverse()
          .concat(ran)
          .map((f) => [f.id, f.createdAt, true]),
      )
      const restored = ok(await again.handlers['flows.get']({ flowId: ran.id }))
      expect(restored.steps.map((s) => s.status)).toEqual(done.steps.map((s) => s.status))
      const refused = await again.handlers['flows.runAll']({ flowId: ran.id })
      expect(!refused.ok && refused.error).toMatchObject({
        code: 'INVALID_INPUT',
        what: expect.stringMatching(/earlier console run: it can be viewed, not run again/),
      })
      const byId = ok(await again.handlers['flows.list']({ ids: [ran.id, 'no-such-flow'] }))
      expect(byId.flows.map((f) => f.id)).toEqual([ran.id])
    } finally {
      await again.stop()
    }
  })

  it('the PSU-absent windows and the days to a consent expiry follow the sandbox clock when it moves', async () => {
    const h = rt.handlers
    const [consent] = ok(await h['consents.list']({}))
    const budget = ok(await h['consents.budget']({ consentId: consent!.consentId }))
    expect(budget.find((b) => b.endpoint === 'accounts')).toMatchObject({ used: 1, remaining: 3 })
    expect(consent!.daysToExpiry).toBe(29)

    ok(await h['sandbox.moveClock']({ days: 2 }))
    const moved = ok(await h['consents.budget']({ consentId: consent!.consentId }))
    // A day later on the bank's clock, the calls of the run are out of the 24-hour window.
    expect(moved.find((b) => b.endpoint === 'accounts')).toMatchObject({ used: 0, remaining: 4 })
    const [listed] = ok(await h['consents.list']({}))
    expect(listed!.daysToExpiry).toBe(27)
  })

  it('a flow reads the sandbox clock before its steps only when it counts the PSU-absent allowance', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const clockReads = async () => ok(await h['exchanges.list']({ pathContains: '/admin/clock', limit: 1 })).total
    const runAis = async (psuPresent: boolean) => {
      const flow = await startFlow(h, {
        kind: 'ais',
        environmentId,
        clientId,
        permissions: ['ReadAccountsBasic'],
        psuPresent,
        ...(psuPresent ? { psuIpAddress: '198.51.100.23' } : {}),
        capture: 'headless',
        authorisationUrlFrom: 'request-object',
      })
      const before = await clockReads()
      const done = ok(await h['flows.runAll']({ flowId: flow.id }))
      expect(done.steps.every((s) => s.status === 'done' || s.status === 'skipped')).toBe(true)
      return (await clockReads()) - before
    }
    expect(await runAis(true)).toBe(0)
    expect(await runAis(false)).toBe(1)
  })

  it('a headless flow for a client the local sandbox sends to its login page is refused before it starts', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict')
    const before = ok(await h['flows.list']({})).flows.length
    const refused = await h['flows.start']({
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic'],
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    expect(!refused.ok && refused.error).toMatchObject({
      code: 'INVALID_INPUT',
      what: `Client ${clientId} cannot authorise headless on Local sandbox.`,
      cause: expect.stringContaining('sandbox_profile "strict"'),
    })
    expect(ok(await h['flows.list']({})).flows).toHaveLength(before)
  })
})
