import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { decodeJwtParts } from '../../../src-main/core/jwt-parts.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import {
  OB_ACR_VALUES,
  createRequestObject,
  type RequestObjectInput,
} from '../../../src-main/signing/request-object.ts'
import { jwksOf, rsaSigner } from './keys-fixture.ts'

const signer = rsaSigner('ro-kid')
const base: RequestObjectInput = {
  clientId: 'client-1',
  issuer: 'https://127.0.0.1:8444',
  redirectUri: 'https://tpp.example/callback',
  scope: 'openid accounts',
  state: 'state-1',
  nonce: 'nonce-1',
  consentId: 'aac-123',
  now: 1767225600,
  alg: 'PS256',
  signer,
  environmentKind: 'production',
}

describe('createRequestObject', () => {
  it('carries the hybrid-flow claims and asks for openbanking_intent_id and acr, signed PS256', async () => {
    const { jwt, claims } = await createRequestObject(base)
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'PS256', kid: 'ro-kid' })
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwksOf(signer)), {
      algorithms: ['PS256'],
      currentDate: new Date(base.now * 1000),
      audience: base.issuer,
      issuer: 'client-1',
    })
    expect(payload).toEqual(claims)
    expect(payload).toMatchObject({
      response_type: 'code id_token',
      client_id: 'client-1',
      redirect_uri: 'https://tpp.example/callback',
      scope: 'openid accounts',
      state: 'state-1',
      nonce: 'nonce-1',
      nbf: base.now,
      exp: base.now + 300,
    })
    expect(payload.claims).toEqual({
      id_token: {
        openbanking_intent_id: { value: 'aac-123', essential: true },
        acr: { essential: true, values: OB_ACR_VALUES },
      },
      userinfo: { openbanking_intent_id: { value: 'aac-123', essential: true } },
    })
  })

  it('makes an unsigned request object where allowed, never in production', async () => {
    const { jwt } = await createRequestObject({
      ...base,
      alg: 'none',
      signer: undefined,
      environmentKind: 'bank-sandbox',
      acrValues: [],
      includeUserinfo: false,
    })
    const parts = decodeJwtParts(jwt)
    expect(parts.header).toEqual({ alg: 'none' })
    expect(parts.signatureSegment).toBe('')
    expect(parts.claims?.claims).toEqual({ id_token: { openbanking_intent_id: { value: 'aac-123', essential: true } } })
    try {
      await createRequestObject({ ...base, alg: 'none' })
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
      expect(isAppError(err) && err.cause).toMatch(/not allowed in production/)
    }
  })

  it('refuses a scope without openid, a missing consent, state or signer, and a lifetime over an hour', async () => {
    for (const bad of [
      { scope: 'accounts' },
      { consentId: '' },
      { state: '' },
      { signer: undefined },
      { lifetimeSeconds: 3601 },
    ]) {
      try {
        await createRequestObject({ ...base, ...bad })
        expect.unreachable()
      } catch (err) {
        expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
      }
    }
  })
})
