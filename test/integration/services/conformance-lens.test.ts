/**
 * The bank-conformance lens against the real local sandbox over mutual TLS, through the console's services
 * as the console runs them: an unmodified sandbox gives no violation on any answer of the AIS and PIS
 * journeys (the lens and the sandbox read the same official files and agree), and the sandbox's fault mode
 * serving an invalid answer puts the violation on that exchange (path, rule, value, source) and its count
 * on the exchange's list row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { ExchangeSummaryDto } from '../../../src-main/contract/exchange-summaries.ts'
import { examplePayment } from '../../../src-main/flows/pis/pis-flow.ts'
import type { RunningSandbox } from '../../../src-main/local-sandbox/index.ts'
import { freshRuntime, headlessAis, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

const AIS = '/open-banking/v4.0/aisp'

describe('bank-conformance lens on the local sandbox', () => {
  let rt: ConsoleRuntime
  let sb: RunningSandbox
  let environmentId: string
  let clientId: string

  beforeAll(async () => {
    rt = await freshRuntime()
    ;({ environmentId, clientId } = await registeredClient(rt.handlers, 'strict-headless'))
    sb = rt.sandbox()!
  })
  afterAll(async () => {
    await sb?.faults.clear()
    await rt?.stop()
  })

  const ais = async () => {
    const flow = await startFlow(rt.handlers, headlessAis(environmentId, clientId))
    const state = ok(await rt.handlers['flows.runAll']({ flowId: flow.id }))
    await rt.services.http.exchanges.conformanceSettled()
    return state
  }
  const rowsOf = async (flowId: string): Promise<ExchangeSummaryDto[]> =>
    ok(await rt.handlers['exchanges.list']({ flowId, limit: 5000 })).items

  it('finds no violation in any answer of an AIS and a PIS journey on an unmodified sandbox', async () => {
    const state = await ais()
    expect(Object.values(stepStatuses(state)).every((s) => s === 'done' || s === 'skipped')).toBe(true)
    const pis = await startFlow(rt.handlers, {
      kind: 'pis',
      environmentId,
      clientId,
      ...examplePayment(),
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    ok(await rt.handlers['flows.runAll']({ flowId: pis.id }))
    await rt.services.http.exchanges.conformanceSettled()
    const all = ok(await rt.handlers['exchanges.list']({ limit: 5000 })).items
    const checked = all.filter((s) => s.violations !== undefined)
    // Every AIS and PIS answer was checked: accounts, balances, 17 pages, the other resources, the payment's.
    expect(checked.filter((s) => s.path.startsWith(AIS)).length).toBeGreaterThan(25)
    expect(checked.filter((s) => s.path.startsWith('/open-banking/v4.0/pisp')).length).toBeGreaterThan(3)
    const verdictOf = async (id: string) => ok(await rt.handlers['exchanges.get']({ id })).conformance
    const dirty = await Promise.all(
      checked.filter((s) => s.violations! > 0).map(async (s) => ({ path: s.path, conformance: await verdictOf(s.id) })),
    )
    expect(dirty).toEqual([])
    const page = all.find((s) => s.path.endsWith('/transactions'))!
    expect(await verdictOf(page.id)).toEqual({
      checked: true,
      operation: 'GET /accounts/{AccountId}/transactions (account-info.json)',
      violations: [],
    })
  }, 120_000)

  it('flags a bad OpeningDate served by fault mode on the accounts answer: path, rule, value, source, and the count on the row', async () => {
    const fault = { kind: 'mutate' as const, set: { '/Data/Account/0/OpeningDate': 'not-a-date' } }
    await sb.faults.set([{ id: 'bad-date', origin: 'base', method: 'GET', path: `${AIS}/accounts`, fault }])
    const state = await ais()
    expect((await sb.faults.list())[0]?.hits).toBeGreaterThan(0)
    await sb.faults.clear()
    expect(stepStatuses(state).accounts).toBe('done')
    const accountsId = state.steps.find((s) => s.id === 'accounts')!.exchangeIds.at(-1)!
    const x = ok(await rt.handlers['exchanges.get']({ id: accountsId }))
    expect(x.conformance).toEqual({
      checked: true,
      operation: 'GET /accounts (account-info.json)',
      violations: [
        {
          path: 'Data.Account[0].OpeningDate',
          rule: 'schema.format',
          message: 'Data.Account[0].OpeningDate must be a date-time',
          value: '"not-a-date"',
          source: expect.stringMatching(/^OBReadAccount6 \(account-info\.json#\/\$defs\//),
        },
      ],
    })
    const row = (await rowsOf(state.id)).find((s) => s.id === accountsId)!
    expect(row.violations).toBe(1)
  }, 120_000)

  it('flags broken pagination (Links.Next removed while pages remain) on the page it hit', async () => {
    const fault = { kind: 'pagination' as const, mode: 'missing-next' as const }
    await sb.faults.set([
      { id: 'no-next', origin: 'base', method: 'GET', path: `${AIS}/accounts/*/transactions`, times: 1, fault },
    ])
    const state = await ais()
    await sb.faults.clear()
    const flagged = (await rowsOf(state.id)).filter((s) => (s.violations ?? 0) > 0)
    expect(flagged).toHaveLength(1)
    const x = ok(await rt.handlers['exchanges.get']({ id: flagged[0]!.id }))
    const source = expect.stringContaining('obie-v4-reference.md §1.4')
    expect(x.conformance!.violations).toEqual([
      expect.objectContaining({ path: 'Links.Next', rule: 'bank.links-next', source }),
    ])
  }, 120_000)
})
