import { describe, expect, it } from 'vitest'
import type { AisFlowInput } from '../../../../src-main/contract/api.ts'
import { aisFlowSteps } from '../../../../src-main/flows/ais/ais-flow.ts'
import { journeyStart } from '../flow-fixture.ts'

describe('the AIS journey', () => {
  it('is the consent journey with scope accounts, then accounts, balances, transactions and other resources', () => {
    const steps = aisFlowSteps({ authorisationUrlFrom: 'app-deeplink' } as AisFlowInput)
    expect(steps.map((s) => s.id)).toEqual([
      ...journeyStart('consent'),
      'accounts',
      'balances',
      'transactions',
      'other-resources',
    ])
    expect(steps.find((s) => s.id === 'authorisation-url')!.explanation).toMatch(/deeplink/)
    expect(steps.find((s) => s.id === 'accounts')).toMatchObject({
      title: 'Accounts',
      requires: ['consent', 'code-exchange'],
    })
  })
})
