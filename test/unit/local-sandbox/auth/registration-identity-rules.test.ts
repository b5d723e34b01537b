import { describe, expect, it } from 'vitest'
import * as rules from '../../../../src-main/local-sandbox/auth/registration/registration-identity-rules.ts'
import { AUTH_URL, NOW, refusal, ssa, validClaims as valid } from './support/registration-claims.ts'

describe('the rules of whose the request is and that it is fresh', () => {
  it('iss must be the software id, and software_id (when sent) too', () => {
    expect(refusal(() => rules.checkIssuer(valid({ iss: 'x' }), ssa)).message).toMatch(
      /iss is "x"; expected the software statement's software_id "Soft1234567890123456AB"/,
    )
    expect(refusal(() => rules.checkIssuer(valid({ iss: undefined }), ssa)).message).toMatch(/no iss claim/)
    expect(refusal(() => rules.checkIssuer(valid({ software_id: 'other' }), ssa)).message).toMatch(
      /software_id is "other"/,
    )
    expect(() => rules.checkIssuer(valid({ software_id: ssa.software_id }), ssa)).not.toThrow()
  })

  it('aud must be exactly {auth_url}; the OB org-id reading is named in the error', () => {
    expect(() => rules.checkAudience(valid(), AUTH_URL)).not.toThrow()
    for (const aud of [`${AUTH_URL}/`, `${AUTH_URL}/token`, ssa.org_id, [AUTH_URL]]) {
      const e = refusal(() => rules.checkAudience(valid({ aud }), AUTH_URL))
      expect(e.error).toBe('invalid_client_metadata')
      expect(e.message).toContain('organisation id')
    }
  })

  it('iat not in the future (60 s skew), exp not passed, at most an hour and the skew between them', () => {
    expect(rules.checkTimes(valid({ iat: NOW + 60, exp: NOW + 3600 }), NOW)).toEqual({ iat: NOW + 60, exp: NOW + 3600 })
    expect(refusal(() => rules.checkTimes(valid({ iat: NOW + 61, exp: NOW + 3600 }), NOW)).message).toMatch(
      /61 s in the future/,
    )
    expect(refusal(() => rules.checkTimes(valid({ exp: NOW }), NOW)).message).toMatch(/expired 0 s ago/)
    expect(refusal(() => rules.checkTimes(valid({ iat: NOW, exp: NOW + 3661 }), NOW)).message).toMatch(
      /exp - iat is 3661 s/,
    )
    expect(refusal(() => rules.checkTimes(valid({ iat: NOW + 50, exp: NOW + 40 }), NOW)).message).toMatch(
      /not after iat/,
    )
    expect(refusal(() => rules.checkTimes(valid({ iat: 1.5 }), NOW)).message).toMatch(/iat is 1.5/)
    expect(refusal(() => rules.checkTimes(valid({ exp: undefined }), NOW)).message).toMatch(/no exp claim/)
  })

  it('jti present and a UUID (spec table 2.1)', () => {
    expect(rules.checkJti(valid())).toBe('a4f7c0de-0000-4000-8000-000000000001')
    expect(refusal(() => rules.checkJti(valid({ jti: undefined }))).message).toMatch(/no jti/)
    expect(refusal(() => rules.checkJti(valid({ jti: 42 }))).message).toMatch(/jti is 42/)
    expect(refusal(() => rules.checkJti(valid({ jti: 'x'.repeat(129) }))).message).toMatch(/expected a UUID/)
    expect(refusal(() => rules.checkJti(valid({ jti: 'registration-1' }))).message).toMatch(
      /"registration-1"; expected a UUID/,
    )
    expect(refusal(() => rules.checkJti(valid({ jti: 'a4f7c0de-0000-4000-8000-00000000000' }))).message).toMatch(
      /expected a UUID/,
    )
    expect(rules.checkJti(valid({ jti: 'A4F7C0DE-0000-4000-8000-000000000001' }))).toBe(
      'A4F7C0DE-0000-4000-8000-000000000001',
    )
  })

  it('software_statement present and a JWT, else invalid_software_statement', () => {
    expect(rules.checkSoftwareStatementPresent(valid())).toBe('h.p.s')
    expect(refusal(() => rules.checkSoftwareStatementPresent(valid({ software_statement: undefined }))).error).toBe(
      'invalid_software_statement',
    )
    expect(refusal(() => rules.checkSoftwareStatementPresent(valid({ software_statement: 'not-a-jwt' }))).error).toBe(
      'invalid_software_statement',
    )
  })

  it("the transport certificate's organisation must be the software statement's org_id", () => {
    expect(() => rules.checkTransportOrganisation(ssa.org_id, ssa)).not.toThrow()
    const e = refusal(() => rules.checkTransportOrganisation('0015800001OTHER0000', ssa))
    expect(e.error).toBe('unapproved_software_statement')
    expect(e.message).toContain('"0015800001OTHER0000"')
    expect(e.message).toContain(`"${ssa.org_id}"`)
    expect(refusal(() => rules.checkTransportOrganisation(undefined, ssa)).message).toContain('absent')
  })
})
