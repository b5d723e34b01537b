import { describe, expect, it } from 'vitest'
import type { PisFlowContext } from '../../../../src-main/flows/pis/pis-context.ts'
import { FINAL_PAYMENT_STATUSES, statusStep } from '../../../../src-main/flows/pis/status-step.ts'
import { caught, fakeFlow } from '../flow-fixture.ts'

/** A PIS flow past the payment whose bank answers each status in turn (the last one from then on). */
function pisFlow(statuses: string[], maxWaitMs = 60_000) {
  const slept: number[] = []
  const pis = { pollIntervalMs: 250, maxWaitMs, sleep: async (ms: number) => void slept.push(ms) }
  const outputs = {
    'domestic-payment': { domesticPaymentId: 'p-1' },
    'client-credentials': { accessToken: 'cc-1' },
    discovery: { jwks_uri: 'https://bank.example/jwks' },
  }
  // The answer that ends the step has its signature checked, as every PIS answer with a body.
  const verified: string[] = []
  const signer = {
    verifyDetachedJws: async (_jws: string | undefined, body: string) => {
      verified.push(body)
      return [{ name: 'response x-jws-signature', pass: true }]
    },
  }
  const flow = fakeFlow<PisFlowContext>(
    (req, n) => ({
      status: 200,
      json: {
        Data: { DomesticPaymentId: 'p-1', Status: statuses[Math.min(n, statuses.length) - 1] },
        Links: { Self: req.url },
      },
    }),
    outputs,
    { pis, signer },
  )
  return { ...flow, slept, verified }
}

describe('the payment status step', () => {
  it('polls with the client-credentials token until a final status, keeping each status once', async () => {
    const { ctx, scope, sent, slept, exchanges, verified } = pisFlow(['RCVD', 'RCVD', 'ACSP', 'ACSC'])
    const out = await statusStep().run(ctx, scope)
    expect(out.output).toEqual({ domesticPaymentId: 'p-1', status: 'ACSC', history: ['RCVD', 'ACSP', 'ACSC'] })
    expect(out.summary).toBe('ACSC (RCVD → ACSP → ACSC)')
    expect(out.checks).toEqual([
      expect.objectContaining({ name: 'final status', pass: true }),
      expect.objectContaining({ name: 'response x-jws-signature', pass: true }),
    ])
    expect(verified).toHaveLength(1)
    expect(verified[0]).toContain('"Status":"ACSC"')
    expect(sent).toHaveLength(4)
    expect(sent[0]).toMatchObject({ method: 'GET', url: 'https://bank.example/pisp/domestic-payments/p-1' })
    expect(sent[0]!.headers!.authorization).toBe('Bearer cc-1')
    expect(slept).toEqual([250, 250, 250])
    expect(exchanges).toEqual(['x1', 'x2', 'x3', 'x4'])
  })

  it('a rejected payment is final and fails its check', async () => {
    expect(FINAL_PAYMENT_STATUSES.has('RJCT')).toBe(true)
    const { ctx, scope } = pisFlow(['RCVD', 'RJCT'])
    const out = await statusStep().run(ctx, scope)
    expect(out.checks).toContainEqual(expect.objectContaining({ name: 'final status', pass: false, actual: 'RJCT' }))
  })

  it('stops at once on a status outside the v4.0 list, with its own code', async () => {
    const { ctx, scope, sent, slept } = pisFlow(['RCVD', 'DONE'])
    const err = await caught(() => statusStep().run(ctx, scope))
    expect(err.code).toBe('PAYMENT_STATUS_UNKNOWN')
    expect(err.what).toMatch(
      /payment p-1 is "DONE", which is not a payment status of Open Banking v4\.0; polling stopped at once/,
    )
    expect(err.cause).toMatch(/Statuses seen: RCVD → DONE/)
    expect(sent).toHaveLength(2)
    expect(slept).toEqual([250])
  })

  it('gives up with TIMEOUT once the wait is over, naming the statuses seen', async () => {
    const { ctx, scope, sent } = pisFlow(['RCVD', 'ACSP'], 0)
    const err = await caught(() => statusStep().run(ctx, scope))
    expect(sent).toHaveLength(1)
    expect(err.code).toBe('TIMEOUT')
    expect(err.cause).toBe('Statuses seen: RCVD. The bank has not settled it yet.')
  })
})
