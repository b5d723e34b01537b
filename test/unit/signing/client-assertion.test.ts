import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { CLIENT_ASSERTION_TYPE, createClientAssertion } from '../../../src-main/signing/client-assertion.ts'
import { jwksOf, rsaSigner } from './keys-fixture.ts'

describe('createClientAssertion', () => {
  it('makes iss = sub = client_id, aud = token endpoint, a jti and a short exp, signed PS256', async () => {
    const signer = rsaSigner('client-kid')
    const now = 1767225600
    const jwt = await createClientAssertion({
      clientId: 'client-1',
      tokenEndpoint: 'https://127.0.0.1:8443/token',
      signer,
      now,
    })
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'PS256', kid: 'client-kid' })
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwksOf(signer)), {
      algorithms: ['PS256'],
      currentDate: new Date(now * 1000),
      audience: 'https://127.0.0.1:8443/token',
      issuer: 'client-1',
      subject: 'client-1',
    })
    expect(payload.exp! - payload.iat!).toBe(300)
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/)
    const other = await createClientAssertion({
      clientId: 'client-1',
      tokenEndpoint: 'https://127.0.0.1:8443/token',
      signer,
      now,
    })
    expect(other).not.toBe(jwt)
    expect(CLIENT_ASSERTION_TYPE).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
  })

  it('refuses an empty client id, a relative endpoint and a long lifetime', async () => {
    const signer = rsaSigner()
    for (const input of [
      { clientId: '', tokenEndpoint: 'https://x/token' },
      { clientId: 'c', tokenEndpoint: '/token' },
      { clientId: 'c', tokenEndpoint: 'https://x/token', lifetimeSeconds: 7200 },
    ]) {
      try {
        await createClientAssertion({ ...input, signer, now: 1 })
        expect.unreachable()
      } catch (err) {
        expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
      }
    }
  })
})
