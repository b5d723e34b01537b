import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../src-main/core/app-error.ts'
import { lookUpPayment } from '../../../../src-main/flows/pis/payment-lookup.ts'
import type { PendingPayment, PisFlowContext } from '../../../../src-main/flows/pis/pis-context.ts'
import { fakeFlow, type FakeAnswer } from '../flow-fixture.ts'

const PENDING: PendingPayment = { consentId: 'c-1', idempotencyKey: 'k-1', body: '{}' }

/** A PIS flow whose bank answers each GET by its path; with or without a client-credentials token. */
function pisFlow(answers: Record<string, FakeAnswer>, withToken = true) {
  return fakeFlow<PisFlowContext>(
    (req) => answers[new URL(req.url).pathname] ?? new Error(`unexpected ${req.url}`),
    withToken ? { 'client-credentials': { accessToken: 'cc-1' } } : {},
  )
}

describe('looking up a payment whose answer was lost', () => {
  it('a spent consent: the bank made the payment; re-running sends the same key', async () => {
    const { ctx, scope, sent } = pisFlow({
      '/pisp/domestic-payment-consents/c-1': { status: 200, json: { Data: { Status: 'COND' } } },
      '/pisp/domestic-payments/p-1': { status: 200, json: { Data: { Status: 'ACSP' } } },
    })
    const err = await lookUpPayment(ctx, scope, { ...PENDING, domesticPaymentId: 'p-1' }, 'The answer was lost')
    expect(sent.every((r) => r.method === 'GET' && r.headers!.authorization === 'Bearer cc-1')).toBe(true)
    expect(err.code).toBe('FLOW_CHECK_FAILED')
    expect(err.what).toBe(
      'The answer was lost. The console looked the payment up: the consent c-1 is COND; payment p-1 exists, status ACSP.',
    )
    expect(err.cause).toBe('The consent is spent, so the bank made a payment with it. No second payment was sent.')
    expect(err.fix).toContain('(k-1)')
    expect(err.details).toMatchObject({ consentId: 'c-1', idempotencyKey: 'k-1', consentStatus: 'COND' })
  })

  it('an unspent consent: no payment was made; a lost answer stays CONNECTION_RESET', async () => {
    const { ctx, scope, sent } = pisFlow({
      '/pisp/domestic-payment-consents/c-1': { status: 200, json: { Data: { Status: 'AUTH' } } },
    })
    const err = await lookUpPayment(ctx, scope, PENDING, 'The answer was lost')
    expect(sent).toHaveLength(1)
    expect(err.code).toBe('CONNECTION_RESET')
    expect(err.cause).toMatch(/^The consent is still authorised and unspent/)
  })

  it('a refused resend keeps the bank’s code, problems and fix; a failed lookup is said, not thrown', async () => {
    const { ctx, scope } = pisFlow({ '/pisp/domestic-payment-consents/c-1': new Error('socket hang up') })
    const refusal = new AppError('OB_ERROR', {
      what: 'Refused.',
      cause: 'The key expired.',
      fix: 'Check the key.',
      problems: [{ path: '/Data', message: 'bad' }] as never,
    })
    const err = await lookUpPayment(ctx, scope, PENDING, 'Refused. The key expired.', refusal)
    expect(err.code).toBe('OB_ERROR')
    expect(err.what).toContain('reading the consent failed too (Error: socket hang up)')
    expect(err.cause).toBe('Whether the bank made the payment is not known: it may exist. No second payment was sent.')
    expect(err.fix).toMatch(/^Check the key\. Then re-run this step/)
    expect(err.problems).toEqual(refusal.problems)
  })

  it('without a client-credentials token nothing is looked up, and it says so', async () => {
    const { ctx, scope, sent } = pisFlow({}, false)
    const err = await lookUpPayment(ctx, scope, PENDING, 'The answer was lost')
    expect(sent).toHaveLength(0)
    expect(err.what).toContain('nothing could be looked up (no client-credentials token in this flow)')
  })
})
