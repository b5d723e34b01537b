import { describe, expect, it } from 'vitest'
import type { AisFlowInput } from '../../../../src-main/contract/api.ts'
import type { AisFlowContext } from '../../../../src-main/flows/ais/ais-context.ts'
import { aisGet, psuHeaders } from '../../../../src-main/flows/ais/ais-get.ts'
import { PsuAbsentBudget } from '../../../../src-main/flows/ais/psu-absent-budget.ts'
import { caught, fakeFlow } from '../flow-fixture.ts'

/** An AIS flow past the code exchange whose bank answers every read with `status`. */
function aisFlow(input: Partial<AisFlowInput>, status = 200) {
  const budget = new PsuAbsentBudget(() => Date.parse('2026-03-01T12:00:00Z'))
  const ais = { input: { permissions: [], ...input }, budget, seenPending: new Map() }
  const outputs = { consent: { consentId: 'c-1' }, 'code-exchange': { accessToken: 'at-1' } }
  return { ...fakeFlow<AisFlowContext>(() => ({ status }), outputs, { ais }), budget }
}

describe('AIS reads and the PSU-absent allowance', () => {
  it('sends the PSU’s IP address only when the PSU is present and the address is known', () => {
    expect(psuHeaders(aisFlow({ psuPresent: true, psuIpAddress: ' 10.1.2.3 ' }).ctx)).toEqual({
      'x-fapi-customer-ip-address': '10.1.2.3',
    })
    expect(psuHeaders(aisFlow({ psuPresent: true }).ctx)).toEqual({})
    expect(psuHeaders(aisFlow({ psuPresent: false, psuIpAddress: '10.1.2.3' }).ctx)).toEqual({})
  })

  it('reads with the code exchange’s token under the AIS path, and counts nothing with the PSU present', async () => {
    const { ctx, scope, sent, budget } = aisFlow({ psuPresent: true, psuIpAddress: '10.1.2.3' })
    await aisGet(ctx, scope, '/accounts/a1/balances', 'balances a1', { account: 'a1', endpoint: 'balances' })
    expect(sent[0]).toMatchObject({ url: 'https://bank.example/aisp/accounts/a1/balances', label: 'balances a1' })
    expect(sent[0]!.headers).toMatchObject({ authorization: 'Bearer at-1', 'x-fapi-customer-ip-address': '10.1.2.3' })
    expect(budget.budget('c-1', 'a1', 'balances').used).toBe(0)
  })

  it('with the PSU absent: counts a 200 only, and refuses a fifth call before sending it', async () => {
    const refused = aisFlow({ psuPresent: false }, 403)
    await aisGet(refused.ctx, refused.scope, '/accounts', 'accounts', { endpoint: 'accounts' })
    expect(refused.budget.budget('c-1', undefined, 'accounts').used).toBe(0)

    const { ctx, scope, sent, budget } = aisFlow({ psuPresent: false })
    for (let i = 0; i < 4; i++) await aisGet(ctx, scope, '/accounts', 'accounts', { endpoint: 'accounts' })
    expect(budget.budget('c-1', undefined, 'accounts')).toMatchObject({ used: 4, remaining: 0 })
    const err = await caught(() => aisGet(ctx, scope, '/accounts', 'accounts', { endpoint: 'accounts' }))
    expect(sent).toHaveLength(4)
    expect(err.code).toBe('INVALID_INPUT')
    expect(err.what).toBe('No PSU-absent calls left for the account list of consent c-1.')
    expect(err.cause).toContain('2026-03-02T12:00:00.000Z')
    // A non-exempt read is not counted (the step refuses those itself when the PSU is absent).
    await aisGet(ctx, scope, '/accounts/a1/party', 'party a1', null)
    expect(sent).toHaveLength(5)
  })
})
