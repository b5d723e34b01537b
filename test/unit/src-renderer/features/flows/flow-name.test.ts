import { describe, expect, it } from 'vitest'
import { flowName } from '../../../../../src-renderer/features/flows/flow-name.ts'
import { flow, step } from '../../support/fixtures.ts'

describe('flowName', () => {
  it('names an AIS flow by its accounts and transactions', () => {
    const f = flow('f', 'ais', [
      step('accounts', 'done', { output: { accounts: [{ AccountId: 'a1' }, { AccountId: 'a2' }] } }),
      step('transactions', 'done', { output: { a1: { total: 1200, pages: 12 }, a2: { total: 491, pages: 5 } } }),
    ])
    expect(flowName(f)).toBe('AIS · 2 accounts · 1,691 transactions')
    const one = flow('f', 'ais', [
      step('accounts', 'done', { output: { accounts: [{ AccountId: 'a1' }] } }),
      step('transactions', 'done', { output: { a1: { total: 1, pages: 1 } } }),
    ])
    expect(flowName(one)).toBe('AIS · 1 account · 1 transaction')
  })
  it('names a PIS flow by its amount and final status, else the payment’s first status', () => {
    const consent = step('payment-consent', 'done', {
      output: { consentId: 'c', initiation: { InstructedAmount: { Amount: '12.50', Currency: 'GBP' } } },
    })
    const payment = step('domestic-payment', 'done', { output: { domesticPaymentId: 'p', status: 'Pending' } })
    const final = step('payment-status', 'done', {
      output: { domesticPaymentId: 'p', status: 'AcceptedSettlementCompleted', history: [] },
    })
    expect(flowName(flow('f', 'pis', [consent, payment, final]))).toBe('PIS · £12.50 · AcceptedSettlementCompleted')
    expect(flowName(flow('f', 'pis', [consent, payment, step('payment-status', 'running')]))).toBe(
      'PIS · £12.50 · Pending',
    )
  })
  it('says where a flow stands while its outputs say nothing, and where it failed', () => {
    expect(flowName(flow('f', 'ais', [step('discovery'), step('accounts')]))).toBe('AIS · not run yet')
    expect(flowName(flow('f', 'ais', [step('discovery', 'done'), step('token', 'running')]))).toBe('AIS · running')
    const failed = flow('f', 'ais', [
      step('accounts', 'done', { output: { accounts: [{ AccountId: 'a1' }] } }),
      step('balances', 'failed'),
    ])
    expect(flowName(failed)).toBe('AIS · 1 account · failed at Balances')
    // Outputs of steps not done (or not objects) are not read.
    const odd = flow('f', 'ais', [
      step('accounts', 'failed', { output: { accounts: [1, 2] } }),
      step('transactions', 'done', { output: 'x' }),
    ])
    expect(flowName(odd)).toBe('AIS · failed at Accounts')
  })
})
