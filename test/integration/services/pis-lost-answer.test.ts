import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { ExchangeDto } from '../../../src-main/contract/exchange.ts'
import { examplePayment } from '../../../src-main/flows/pis/pis-flow.ts'
import { freshRuntime, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

const PAYMENTS = '/open-banking/v4.0/pisp/domestic-payments'

describe('a payment whose answer is lost is never made twice (local sandbox with faults)', () => {
  let rt: ConsoleRuntime
  let client: { environmentId: string; clientId: string }
  beforeAll(async () => {
    rt = await freshRuntime()
    client = await registeredClient(rt.handlers, 'strict-headless')
  })
  beforeEach(() => rt.sandbox()?.faults.clear())
  afterAll(async () => {
    await rt?.stop()
  })

  /** A flow run up to (not including) the payment. */
  async function readyToPay() {
    const h = rt.handlers
    const flow = await startFlow(h, {
      kind: 'pis',
      environmentId: client.environmentId,
      clientId: client.clientId,
      ...examplePayment(),
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const state = ok(await h['flows.runAll']({ flowId: flow.id, until: 'funds-confirmation' }))
    expect(stepStatuses(state)['funds-confirmation']).toBe('done')
    return flow.id
  }

  async function paymentExchanges(flowId: string): Promise<ExchangeDto[]> {
    const page = ok(await rt.handlers['exchanges.list']({ flowId, pathContains: 'domestic-payments', limit: 100 }))
    const all = await Promise.all(page.items.map(async (s) => ok(await rt.handlers['exchanges.get']({ id: s.id }))))
    return all.filter((x) => x.request.method === 'POST' && new URL(x.request.url).pathname === PAYMENTS)
  }
  const keyOf = (x: ExchangeDto) => x.request.headers.find(([k]) => k.toLowerCase() === 'x-idempotency-key')?.[1]

  it('an answer lost once: the client sends the same request with the same key, the bank answers the payment it made', async () => {
    const flowId = await readyToPay()
    await rt.sandbox()!.faults.set([{ method: 'POST', path: PAYMENTS, times: 1, fault: { kind: 'lost-response' } }])
    const step = ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'domestic-payment' })).steps.find(
      (s) => s.id === 'domestic-payment',
    )!
    expect(step.status, JSON.stringify(step.error)).toBe('done')
    const sent = await paymentExchanges(flowId)
    expect(sent.map((x) => x.error?.code ?? x.response?.status)).toEqual(['CONNECTION_RESET', 201])
    expect(sent[1]!.label).toContain('try 2 of 3')
    expect(new Set(sent.map(keyOf)).size).toBe(1)
    // The status step finds the one payment.
    const done = ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'payment-status' }))
    expect(stepStatuses(done)['payment-status']).toBe('done')
  })

  it('every try lost: the step looks the payment up and says it exists; the re-run gets it back with the same key', async () => {
    const flowId = await readyToPay()
    await rt.sandbox()!.faults.set([{ method: 'POST', path: PAYMENTS, fault: { kind: 'lost-response' } }])
    const failed = ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'domestic-payment' })).steps.find(
      (s) => s.id === 'domestic-payment',
    )!
    expect(failed.status).toBe('failed')
    expect(failed.error!.what).toContain('The answer to the payment was lost')
    expect(failed.error!.what).toMatch(/the consent \S+ is COND/)
    expect(failed.error!.cause).toContain('the bank made a payment with it')
    expect(failed.error!.cause).toContain('No second payment was sent')
    expect(failed.error!.fix).toContain('same x-idempotency-key')
    await rt.sandbox()!.faults.clear()
    const rerun = ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'domestic-payment' })).steps.find(
      (s) => s.id === 'domestic-payment',
    )!
    expect(rerun.status, JSON.stringify(rerun.error)).toBe('done')
    const sent = await paymentExchanges(flowId)
    // The tries lost (each with no answer; on Node 24 a retry's fresh connection closed by the server can read as
    // a refused client certificate, which ends the tries early), then the re-run: one key throughout, and the
    // bank answered 201 (a new key would get 409 U029).
    const lost = sent.slice(0, -1)
    expect(lost.length).toBeGreaterThanOrEqual(2)
    expect(lost.length).toBeLessThanOrEqual(3)
    expect(lost[0]!.error?.code).toBe('CONNECTION_RESET')
    for (const x of lost) expect(x.response, 'a lost try has no answer').toBeUndefined()
    expect(sent.at(-1)!.response?.status).toBe(201)
    expect(new Set(sent.map(keyOf)).size).toBe(1)
    expect(sent.at(-1)!.label).toContain('sent again with its first idempotency key')
  })

  it('every try reset before the bank acted: the lookup says no payment exists; the re-run makes the one payment', async () => {
    const flowId = await readyToPay()
    await rt.sandbox()!.faults.set([{ method: 'POST', path: PAYMENTS, fault: { kind: 'reset' } }])
    const failed = ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'domestic-payment' })).steps.find(
      (s) => s.id === 'domestic-payment',
    )!
    expect(failed.status).toBe('failed')
    expect(failed.error!.what).toMatch(/the consent \S+ is AUTH/)
    expect(failed.error!.cause).toContain('the bank made no payment with it')
    await rt.sandbox()!.faults.clear()
    const rerun = ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'domestic-payment' })).steps.find(
      (s) => s.id === 'domestic-payment',
    )!
    expect(rerun.status, JSON.stringify(rerun.error)).toBe('done')
    expect(new Set((await paymentExchanges(flowId)).map(keyOf)).size).toBe(1)
  })
})
