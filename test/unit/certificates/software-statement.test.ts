import { describe, expect, it } from 'vitest'
import { parseSoftwareStatement } from '../../../src-main/certificates/software-statement.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { ORG_ID, SOFTWARE_ID, ssaClaims, unsignedJwt } from './pki-fixture.ts'

describe('parseSoftwareStatement', () => {
  it('reads ids, roles, redirect URIs and the JWKS endpoint', () => {
    const { statement, problems } = parseSoftwareStatement(unsignedJwt(ssaClaims()))
    expect(problems).toEqual([])
    expect(statement).toMatchObject({
      softwareId: SOFTWARE_ID,
      orgId: ORG_ID,
      orgName: 'Example TPP Ltd',
      roles: ['AISP', 'PISP'],
      redirectUris: ['https://tpp.example/callback'],
      mode: 'Test',
      issuedAt: '2026-01-01T00:00:00.000Z',
    })
  })

  it('lists what a registration would trip on', () => {
    const { problems } = parseSoftwareStatement(
      unsignedJwt(
        ssaClaims({
          software_id: undefined,
          software_roles: ['AISP', 'XYZ'],
          software_redirect_uris: [],
          org_status: 'Revoked',
        }),
      ),
    )
    expect(problems).toHaveLength(4)
    expect(problems.join('\n')).toMatch(/software_id is missing/)
    expect(problems.join('\n')).toMatch(/unknown roles XYZ/)
    expect(problems.join('\n')).toMatch(/software_redirect_uris is missing or empty/)
    expect(problems.join('\n')).toMatch(/org_status is Revoked/)
  })

  it('throws JWT_MALFORMED when it is not a JWT', () => {
    for (const bad of ['not-a-jwt', `${Buffer.from('{"alg":"none"}').toString('base64url')}.bm90LWpzb24.`]) {
      try {
        parseSoftwareStatement(bad)
        expect.unreachable()
      } catch (err) {
        expect(isAppError(err) && err.code).toBe('JWT_MALFORMED')
      }
    }
  })
})
