import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { halfHash, validateIdToken, type IdTokenExpectations } from '../../../src-main/signing/id-token.ts'
import { b64json, jwksOf, rsaSigner } from './keys-fixture.ts'

const as = rsaSigner('as-kid')
const now = 1767225600
const expect0: IdTokenExpectations = {
  jwks: jwksOf(as),
  issuer: 'https://127.0.0.1:8444',
  clientId: 'client-1',
  nonce: 'n-1',
  code: 'code-1',
  state: 'state-1',
  consentId: 'aac-1',
  now,
}

async function idToken(claims: Record<string, unknown> = {}, signer = as): Promise<string> {
  return new SignJWT({
    iss: expect0.issuer,
    aud: 'client-1',
    sub: 'aac-1',
    nonce: 'n-1',
    openbanking_intent_id: 'aac-1',
    acr: 'urn:openbanking:psd2:sca',
    c_hash: halfHash('code-1'),
    s_hash: halfHash('state-1'),
    iat: now - 10,
    exp: now + 3590,
    ...claims,
  })
    .setProtectedHeader({ alg: 'PS256', kid: signer.kid, typ: 'JWT' })
    .sign(signer.key)
}
const failing = (checks: Array<{ name: string; pass: boolean }>) => checks.filter((c) => !c.pass).map((c) => c.name)

describe('halfHash', () => {
  it('is base64url of the left half of SHA-256 (OIDC core 3.3.2.11 example)', () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223 | b00361a396177a9cb410ff61f20015ad
    expect(Buffer.from(halfHash('abc'), 'base64url').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223')
  })
})

describe('validateIdToken', () => {
  it('passes every check for a good hybrid-flow ID token', async () => {
    const result = await validateIdToken(await idToken(), expect0)
    expect(failing(result.checks)).toEqual([])
    expect(result.valid).toBe(true)
    expect(result.checks.map((c) => c.name)).toEqual([
      'alg',
      'kid',
      'signature',
      'iss',
      'aud',
      'exp',
      'iat',
      'nonce',
      'c_hash',
      's_hash',
      'openbanking_intent_id',
    ])
    expect(result.claims?.openbanking_intent_id).toBe('aac-1')
  })

  it('reports each wrong claim separately', async () => {
    const token = await idToken({
      iss: 'https://other',
      aud: ['client-1', 'client-2'],
      nonce: 'n-2',
      c_hash: halfHash('other-code'),
      s_hash: undefined,
      openbanking_intent_id: 'aac-2',
    })
    const result = await validateIdToken(token, expect0)
    expect(failing(result.checks)).toEqual(['iss', 'aud', 'nonce', 'c_hash', 's_hash', 'openbanking_intent_id'])
    expect(result.checks.find((c) => c.name === 's_hash')!.hint).toMatch(/FAPI requires s_hash/)
  })

  it('gives a clock-skew hint on exp and iat, with the measured skew when the server time is known', async () => {
    const expired = await validateIdToken(await idToken({ iat: now - 4000, exp: now - 400 }), expect0)
    expect(failing(expired.checks)).toEqual(['exp'])
    expect(expired.checks.find((c) => c.name === 'exp')!.hint).toMatch(/clock may be wrong/)
    const future = await validateIdToken(await idToken({ iat: now + 300, exp: now + 3900 }), {
      ...expect0,
      serverTime: now + 300,
    })
    expect(failing(future.checks)).toEqual(['iat'])
    expect(future.checks.find((c) => c.name === 'iat')!.hint).toBe(
      "this computer's clock is 300 s behind the bank's (from its Date header): correct the clock",
    )
    // Within the allowed skew.
    expect((await validateIdToken(await idToken({ iat: now + 30 }), expect0)).valid).toBe(true)
  })

  it('fails the signature for another key, an unknown kid, alg none and garbage', async () => {
    const forged = await idToken({}, rsaSigner('as-kid'))
    expect(failing((await validateIdToken(forged, expect0)).checks)).toEqual(['signature'])
    expect(failing((await validateIdToken(await idToken({}, rsaSigner('rotated')), expect0)).checks)).toEqual([
      'kid',
      'signature',
    ])
    const none = `${b64json({ alg: 'none' })}.${b64json({ iss: expect0.issuer, aud: 'client-1', nonce: 'n-1', exp: now + 60, iat: now, c_hash: halfHash('code-1'), s_hash: halfHash('state-1'), openbanking_intent_id: 'aac-1' })}.`
    const r = await validateIdToken(none, expect0)
    expect(failing(r.checks)).toEqual(['alg', 'kid', 'signature'])
    expect(r.checks[0]!.hint).toMatch(/unsigned ID token proves nothing/)
    expect((await validateIdToken('garbage', expect0)).checks).toMatchObject([{ name: 'format', pass: false }])
  })
})
