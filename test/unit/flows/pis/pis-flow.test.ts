import { describe, expect, it } from 'vitest'
import type { PisFlowInput } from '../../../../src-main/contract/api.ts'
import { examplePayment, pisFlowSteps } from '../../../../src-main/flows/pis/pis-flow.ts'
import { caught, journeyStart } from '../flow-fixture.ts'

describe('the PIS journey', () => {
  it('is the consent journey with scope payments, then funds, payment and status', () => {
    const steps = pisFlowSteps({ ...examplePayment(), authorisationUrlFrom: 'request-object' } as PisFlowInput)
    expect(steps.map((s) => s.id)).toEqual([
      ...journeyStart('payment-consent'),
      'funds-confirmation',
      'domestic-payment',
      'payment-status',
    ])
    expect(steps.find((s) => s.id === 'authorisation-url')!.requires).toContain('payment-consent')
  })

  it('refuses a payment without an Initiation, saying what to fill in', async () => {
    const err = await caught(() => pisFlowSteps({ authorisationUrlFrom: 'request-object' } as PisFlowInput))
    expect(err.code).toBe('INVALID_INPUT')
    expect(err.what).toBe('The payment has no Initiation.')
  })

  it('the example payment is £10.00 by Faster Payments, with fresh references each time', () => {
    const a = examplePayment()
    const b = examplePayment()
    expect(a.initiation).toMatchObject({ LocalInstrument: 'UK.OBIE.FPS', InstructedAmount: { Amount: '10.00' } })
    expect(a.initiation.InstructionIdentification).toMatch(/^INSTR-[0-9A-F]{8}$/)
    expect(a.initiation.EndToEndIdentification).not.toBe(b.initiation.EndToEndIdentification)
    expect(a.risk).toEqual({ PaymentContextCode: 'TransferToThirdParty' })
  })
})
