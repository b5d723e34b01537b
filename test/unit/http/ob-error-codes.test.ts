import { describe, expect, it } from 'vitest'
import { OB_ERROR_CODES, obCodeInfo } from '../../../src-main/http/ob-error-codes.ts'

describe('Open Banking error codes', () => {
  it('covers U000 to U042 with a v3.1 name and an explanation', () => {
    for (let i = 0; i <= 42; i++) {
      const code = `U${String(i).padStart(3, '0')}`
      expect(OB_ERROR_CODES[code]?.name, code).toMatch(/^UK\.OBIE\./)
      expect(OB_ERROR_CODES[code]?.explanation.length, code).toBeGreaterThan(10)
    }
    expect(OB_ERROR_CODES.U028!.status).toBe(403)
    expect(OB_ERROR_CODES.U029!.status).toBe(409)
  })

  it('finds a code by its v4.0 form or its v3.1 name', () => {
    expect(obCodeInfo('U004')).toMatchObject({ code: 'U004', name: 'UK.OBIE.Field.Missing' })
    expect(obCodeInfo('UK.OBIE.Signature.Invalid')).toMatchObject({ code: 'U015' })
    expect(obCodeInfo('NOPE')).toBeUndefined()
  })
})
