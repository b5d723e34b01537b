import { describe, expect, it } from 'vitest'
import type { DecodedJwtDto } from '../../../src-main/contract/jwt.ts'
import { registrationFormOf, registrationJwtChecks } from '../../../src-main/services/registration-jwt-rules.ts'
import { buildRegistrationClaims } from '../../../src-main/signing/registration-jwt.ts'
import { ssa } from '../signing/keys-fixture.ts'

const authUrl = 'https://auth.bank.example'
const iat = 1767225600

function decoded(claims: Record<string, unknown>, header: Record<string, unknown> = {}): DecodedJwtDto {
  return {
    location: 'request body',
    header: { alg: 'PS256', kid: 'k1', typ: 'JWT', ...header },
    claims,
    times: {},
    signature: 'present',
    compact: 'x.y.z',
  }
}

const claims = () =>
  buildRegistrationClaims(
    { softwareStatement: ssa(), redirectUris: ['https://tpp.example/callback'] },
    { authUrl, environmentKind: 'bank-sandbox', now: iat },
  ) as unknown as Record<string, unknown>

const failing = (checks: Array<{ name: string; pass: boolean }>) => checks.filter((c) => !c.pass).map((c) => c.name)

describe('registration JWT rules of the JWT debugger', () => {
  it('reads back the form a registration JWT carries, its lifetime from exp - iat', () => {
    const form = registrationFormOf(claims())
    expect(form).toMatchObject({
      softwareStatement: ssa(),
      redirectUris: ['https://tpp.example/callback'],
      tokenEndpointAuthMethod: 'private_key_jwt',
      lifetimeSeconds: 3600,
    })
    expect(registrationFormOf({ scope: 7, grant_types: 'x' })).toEqual({ softwareStatement: '' })
  })

  it('passes a well-formed registration JWT before it expires, and says when it has', () => {
    expect(failing(registrationJwtChecks(decoded(claims()), { authUrl }, iat + 10))).toEqual([])
    expect(failing(registrationJwtChecks(decoded(claims()), { authUrl }, iat + 7200))).toEqual(['exp (now)'])
  })

  it('fails an iss other than the SSA software_id, and a header other than typ JWT, alg PS256 with a kid', () => {
    const names = failing(
      registrationJwtChecks(decoded({ ...claims(), iss: 'someone' }, { typ: 'JOSE', alg: 'RS256', kid: 3 }), {}, iat),
    )
    expect(names).toEqual(['iss (as sent)', 'header typ', 'header alg', 'header kid'])
  })
})
