import type { OBWriteDomesticConsent4 } from '../../../plumbing/ob-wire/payment-initiation.ts'
import { ObApiError, type ObErrorDetail } from '../../http/ob-error.ts'
import { checkAccountIdentification } from './account-identification.ts'
import { amountToUnits, decimalPlaces } from './amount.ts'

/** Local instruments the sandbox executes for domestic GBP payments; every other value is `U026`. */
export const SUPPORTED_LOCAL_INSTRUMENTS = ['UK.OBIE.FPS', 'UK.OBIE.BACS', 'UK.OBIE.CHAPS'] as const

/** The only currency of domestic payments at the sandbox's bank. */
export const SUPPORTED_CURRENCY = 'GBP'

/** A schema-valid OBWriteDomesticConsent4 `Data`, as the official file types it. */
export type DomesticConsentData = OBWriteDomesticConsent4['Data']
export type DomesticInitiation = DomesticConsentData['Initiation']

const INITIATION = 'Data.Initiation'

/**
 * The sandbox's business rules for a schema-valid consent request, beyond the schema: GBP only
 * (`U023`), a positive amount with at most 2 decimals (`U002`), a supported local instrument
 * (`U026`), supported account schemes (`U027`) with well-formed identifications (`U021`), and an
 * authorisation completion time in the future (`U003`). Throws a 400 listing every problem.
 */
export function checkConsentRules(data: DomesticConsentData, nowMs: number): void {
  const problems: ObErrorDetail[] = []
  const { InstructedAmount: amount, LocalInstrument: instrument } = data.Initiation
  if (amount.Currency !== SUPPORTED_CURRENCY) {
    problems.push({
      code: 'U023',
      path: `${INITIATION}.InstructedAmount.Currency`,
      message: `${INITIATION}.InstructedAmount.Currency "${amount.Currency}" is not supported: domestic payments at this bank are in GBP only`,
    })
  } else if (decimalPlaces(amount.Amount) > 2) {
    problems.push({
      code: 'U002',
      path: `${INITIATION}.InstructedAmount.Amount`,
      message: `${INITIATION}.InstructedAmount.Amount "${amount.Amount}" has ${decimalPlaces(amount.Amount)} decimal places; GBP amounts have at most 2 (pence)`,
    })
  }
  if (amountToUnits(amount.Amount) === 0n) {
    problems.push({
      code: 'U002',
      path: `${INITIATION}.InstructedAmount.Amount`,
      message: `${INITIATION}.InstructedAmount.Amount must be greater than zero`,
    })
  }
  if (instrument !== undefined && !(SUPPORTED_LOCAL_INSTRUMENTS as readonly string[]).includes(instrument)) {
    problems.push({
      code: 'U026',
      path: `${INITIATION}.LocalInstrument`,
      message: `${INITIATION}.LocalInstrument "${instrument}" is not supported for domestic payments by the sandbox; use ${SUPPORTED_LOCAL_INSTRUMENTS.join(', ')} or leave it out (FPS)`,
    })
  }
  problems.push(...checkAccountIdentification(data.Initiation.CreditorAccount, `${INITIATION}.CreditorAccount`))
  if (data.Initiation.DebtorAccount)
    problems.push(...checkAccountIdentification(data.Initiation.DebtorAccount, `${INITIATION}.DebtorAccount`))
  const completion = data.Authorisation?.CompletionDateTime
  if (completion !== undefined && Date.parse(completion) <= nowMs) {
    problems.push({
      code: 'U003',
      path: 'Data.Authorisation.CompletionDateTime',
      message: `Data.Authorisation.CompletionDateTime ${completion} is not in the future (sandbox time ${new Date(nowMs).toISOString()}); the PSU could never complete the authorisation`,
    })
  }
  if (problems.length) throw new ObApiError(400, problems)
}
