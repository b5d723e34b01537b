import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleRuntime, type ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { freshRuntime, ok, registeredClient, startFlow } from './journey-support.ts'

describe('consents the console created: listed per client, read and revoked at the bank; the PSU-absent allowance before a step', () => {
  let rt: ConsoleRuntime

  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('an AIS consent with the PSU absent: allowance said before each data step, then listed (the same after a restart), read (AUTH), revoked, and refused by the bank afterwards', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString()
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic', 'ReadBalances'],
      psuPresent: false,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
      expirationDateTime: expiry,
    })
    // Nothing to say before the consent exists.
    expect(ok(await h['ais.budgetBefore']({ flowId: flow.id, stepId: 'accounts' }))).toEqual([])
    ok(await h['flows.runAll']({ flowId: flow.id, until: 'code-exchange' }))
    expect(ok(await h['ais.budgetBefore']({ flowId: flow.id, stepId: 'accounts' }))).toMatchObject([
      { endpoint: 'accounts', used: 0, remaining: 4, keying: 'consent-account-endpoint' },
    ])
    expect(ok(await h['ais.budgetBefore']({ flowId: flow.id, stepId: 'balances' }))).toEqual([])
    ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'accounts' }))
    const before = ok(await h['ais.budgetBefore']({ flowId: flow.id, stepId: 'balances' }))
    expect(before.map((b) => [b.endpoint, b.remaining])).toEqual([
      ['balances', 4],
      ['balances', 4],
    ])
    expect(ok(await h['ais.budgetBefore']({ flowId: flow.id, stepId: 'accounts' }))[0]).toMatchObject({
      used: 1,
      remaining: 3,
      nextReturnAt: expect.any(String),
    })
    ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(ok(await h['ais.budgetBefore']({ flowId: flow.id, stepId: 'other-resources' }))).toEqual([])

    const [listed] = ok(await h['consents.list']({ clientId }))
    expect(listed).toMatchObject({
      kind: 'ais',
      clientId,
      // The status the flow last saw: created AWAU, then authorised by the PSU (the code was exchanged).
      status: 'AUTH',
      expirationDateTime: expiry,
      daysToExpiry: 29,
      lastScaAt: expect.any(String),
      scaWindowEndsAt: expect.any(String),
    })
    const budget = ok(await h['consents.budget']({ consentId: listed!.consentId }))
    expect(budget.filter((b) => b.endpoint === 'balances').map((b) => b.remaining)).toEqual([3, 3])

    // Another console on the same data directory (as after a restart, or the CLI beside the app): the same list and
    // counters, once this one's changes are on disk (they are written behind the steps, a few milliseconds later).
    await rt.services.state.flushed()
    const again2 = await createConsoleRuntime({
      host: 'web',
      dataDir: rt.dataDir,
      loopbackPort: 0,
      log: () => undefined,
    })
    try {
      expect(ok(await again2.handlers['consents.list']({ clientId }))).toEqual([listed])
      const counted = (rows: typeof budget) => rows.map(({ historyWithoutScaFrom: _now, ...b }) => b)
      expect(counted(ok(await again2.handlers['consents.budget']({ consentId: listed!.consentId })))).toEqual(
        counted(budget),
      )
    } finally {
      await again2.stop()
    }

    const read = ok(await h['consents.get']({ consentId: listed!.consentId }))
    expect(read.consent).toMatchObject({ status: 'AUTH', permissions: ['ReadAccountsBasic', 'ReadBalances'] })
    expect(read.data.Status).toBe('AUTH')

    const revoked = ok(await h['consents.delete']({ consentId: listed!.consentId }))
    expect(revoked.consent.status).toBe('Deleted')
    const again = await h['consents.get']({ consentId: listed!.consentId })
    expect(again.ok).toBe(false)
    if (!again.ok) expect(`${again.error.what} ${again.error.cause}`).toContain('deleted')
    const after = ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'balances' }))
    const balances = after.steps.find((s) => s.id === 'balances')!
    expect(balances.status).toBe('failed')
    expect(JSON.stringify(balances.error)).toContain('CANC')
    // An unknown consent is named.
    const noBudget = await h['consents.budget']({ consentId: 'nope' })
    expect(noBudget.ok ? undefined : noBudget.error.code).toBe('NOT_FOUND')
    const unknown = await h['consents.delete']({ consentId: 'nope' })
    expect(unknown.ok ? undefined : unknown.error.code).toBe('NOT_FOUND')
  })
})
