import { generateKeyPairSync } from 'node:crypto'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../../src-main/core/clock.ts'
import { verifyJwt } from '../../../src-main/services/jwt-debugger.ts'

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
const now = 1_800_000_000
const clock = fixedClock(now * 1000)
const noJwks = async () => {
  throw new Error('no JWKS in this test')
}

async function requestObject(claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({
    iss: 'client-1',
    client_id: 'client-1',
    aud: 'https://auth.bank.example',
    response_type: 'code id_token',
    redirect_uri: 'https://tpp.example/cb',
    scope: 'openid accounts',
    state: 's',
    nonce: 'n',
    nbf: now - 10,
    exp: now + 300,
    claims: { id_token: { openbanking_intent_id: { value: 'aac-1', essential: true } } },
    ...claims,
  })
    .setProtectedHeader({ alg: 'PS256', kid: 'k1' })
    .sign(privateKey)
}

describe('verifyJwt (the JWT debugger)', () => {
  it('verifies the signature against a pasted public key and passes the request-object rules', async () => {
    const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string
    const { checks, decoded } = await verifyJwt(
      {
        token: await requestObject(),
        key: { pem },
        rules: 'request-object',
        expected: { issuer: 'https://auth.bank.example', consentId: 'aac-1' },
      },
      noJwks,
      clock,
    )
    expect(decoded.claims?.nonce).toBe('n')
    expect(checks.filter((c) => !c.pass)).toEqual([])
  })

  it('fails the signature of a tampered token, and of a token checked with another key', async () => {
    const token = await requestObject()
    const [h, p, s] = token.split('.')
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString())
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...claims, scope: 'openid payments' })).toString('base64url'),
      s,
    ].join('.')
    const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string
    const r1 = await verifyJwt({ token: tampered, key: { pem } }, noJwks, clock)
    expect(r1.checks.find((c) => c.name === 'signature')).toMatchObject({
      pass: false,
      actual: expect.stringContaining('does not match'),
    })
    const r2 = await verifyJwt(
      { token, key: { jwk: other.publicKey.export({ format: 'jwk' }) as Record<string, unknown> } },
      noJwks,
      clock,
    )
    expect(r2.checks.find((c) => c.name === 'signature')?.pass).toBe(false)
  })

  it("verifies with a TPP identity's signing key, read on the main side and named as such", async () => {
    const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>
    const identities = (tppId: string) => (tppId === 'tpp-1' ? { jwk, name: 'Budget app', kid: 'k1' } : undefined)
    const token = await requestObject()
    const r = await verifyJwt({ token, key: { tppId: 'tpp-1' } }, noJwks, clock, identities)
    expect(r.checks.find((c) => c.name === 'signature')).toMatchObject({
      pass: true,
      expected: 'valid with the signing key of Budget app (kid k1)',
    })
    await expect(verifyJwt({ token, key: { tppId: 'tpp-2' } }, noJwks, clock, identities)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('The identity has no signing key to verify with.'),
    })
  })

  it('names each request-object rule that fails', async () => {
    const token = await requestObject({ exp: now - 1, response_type: 'code', aud: 'https://elsewhere.example' })
    const { checks } = await verifyJwt(
      { token, rules: 'request-object', expected: { issuer: 'https://auth.bank.example' } },
      noJwks,
      clock,
    )
    expect(
      checks
        .filter((c) => !c.pass)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['aud', 'exp', 'response_type'])
  })

  it('refuses a pasted private key, and says an alg none token is unsigned', async () => {
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    await expect(verifyJwt({ token: await requestObject(), key: { pem } }, noJwks, clock)).rejects.toMatchObject({
      code: 'KEY_INVALID',
    })
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"iss":"x"}').toString('base64url')}.`
    const { checks } = await verifyJwt({ token: none, rules: 'none' }, noJwks, clock)
    expect(checks.find((c) => c.name === 'signature')).toMatchObject({
      pass: false,
      actual: expect.stringContaining('unsigned'),
    })
  })

  it('checks a client assertion by RFC 7523, judging its times at the moment given', async () => {
    const assertion = (claims: Record<string, unknown>) =>
      new SignJWT({
        iss: 'client-1',
        sub: 'client-1',
        aud: 'https://as.example/token',
        jti: 'j-1',
        iat: now - 7200,
        exp: now - 6900,
        ...claims,
      })
        .setProtectedHeader({ alg: 'PS256', kid: 'k1' })
        .sign(privateKey)
    const expected = { clientId: 'client-1', tokenEndpoint: 'https://as.example/token' }
    const sentAt = { ...expected, at: String(now - 7100) }
    expect(
      (
        await verifyJwt({ token: await assertion({}), rules: 'client-assertion', expected: sentAt }, noJwks, clock)
      ).checks.filter((c) => !c.pass),
    ).toEqual([])
    const today = await verifyJwt({ token: await assertion({}), rules: 'client-assertion', expected }, noJwks, clock)
    expect(today.checks.filter((c) => !c.pass).map((c) => c.name)).toEqual(['exp'])
    const wrong = await verifyJwt(
      {
        token: await assertion({ sub: 'other', aud: 'https://as.example', jti: undefined, exp: now - 100 }),
        rules: 'client-assertion',
        expected: sentAt,
      },
      noJwks,
      clock,
    )
    expect(wrong.checks.filter((c) => !c.pass).map((c) => c.name)).toEqual(['sub = iss', 'aud', 'jti', 'exp - iat'])
  })

  it("checks a software statement's members as a bank reads them at registration", async () => {
    const ssa = await new SignJWT({
      iss: 'dir',
      iat: now - 10,
      software_id: 'sw',
      org_id: 'org',
      software_roles: ['AISP', 'XX'],
      software_redirect_uris: [],
      org_status: 'Revoked',
    })
      .setProtectedHeader({ alg: 'PS256', kid: 'd1' })
      .sign(privateKey)
    const { checks } = await verifyJwt({ token: ssa, rules: 'software-statement' }, noJwks, clock)
    expect(checks.filter((c) => !c.pass).map((c) => c.name)).toEqual([
      'software_roles',
      'software_redirect_uris',
      'org_status',
    ])
  })
})
