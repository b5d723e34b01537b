import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { WIRE_TYPE_FILES, WIRE_TYPES_DIR, wireTypesText } from '../../../../scripts/openapi/types.ts'
import type { OBReadAccount6, OBRisk2 } from '../../../../src-main/plumbing/ob-wire/account-info.ts'
import type { OBWriteDomesticResponse5 } from '../../../../src-main/plumbing/ob-wire/payment-initiation.ts'

describe('the wire types generated from resources/openapi (src-main/plumbing/ob-wire)', () => {
  for (const file of Object.keys(WIRE_TYPE_FILES) as Array<keyof typeof WIRE_TYPE_FILES>) {
    it(`${file} is what scripts/openapi/types.ts gives today (npm run openapi:types rewrites it)`, async () => {
      expect(readFileSync(resolve(WIRE_TYPES_DIR, file), 'utf8')).toBe(await wireTypesText(file))
    }, 30_000)
  }

  it('names every schema of each file, code lists as unions and open objects as records', () => {
    const text = readFileSync(resolve(WIRE_TYPES_DIR, 'account-info.ts'), 'utf8')
    const defs = Object.keys(
      (
        JSON.parse(readFileSync(resolve(WIRE_TYPES_DIR, '../../../resources/openapi/account-info.json'), 'utf8')) as {
          $defs: Record<string, unknown>
        }
      ).$defs,
    )
    expect(defs.length).toBeGreaterThan(200)
    for (const name of ['OBReadAccount6', 'OBReadTransaction6', 'OBReadConsentResponse1', 'OBTransaction6'])
      expect(text).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'))
    expect(text).toMatch(/^export type OBRisk2 = Record<string, never>$/m)
    expect(text).toMatch(/^export type OBInternalAccountType1Code = 'Business' \| 'Personal'$/m)
  })

  it('type-check answers as the official files define them (a wrong one fails the type-check of this file)', () => {
    const accounts: OBReadAccount6 = {
      Data: {
        Account: [{ AccountId: 'a-1', Status: 'Enabled', AccountCategory: 'Personal', AccountTypeCode: 'CACC' }],
      },
      Links: { Self: 'https://bank.example/accounts' },
    }
    // @ts-expect-error: a status no payment has in v4.0
    const payment: OBWriteDomesticResponse5['Data']['Status'] = 'DONE'
    // @ts-expect-error: OBRisk2 is closed and empty
    const risk: OBRisk2 = { PaymentContextCode: 'EcommerceGoods' }
    expect([accounts.Data.Account?.[0]?.AccountId, payment, risk]).toHaveLength(3)
  })
})
