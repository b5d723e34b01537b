import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CompactSign, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { ConsentStore } from '../../../../src-main/local-sandbox/consents/consent-store.ts'
import {
  checkIntent,
  errorRedirect,
} from '../../../../src-main/local-sandbox/auth/authorisation/authorisation-request.ts'
import {
  AuthorisationRequestError,
  checkRequestObjectParties,
  checkRequestObjectTimes,
  decodeRequestObject,
  intentIdOf,
  verifyRequestObjectSignature,
} from '../../../../src-main/local-sandbox/auth/authorisation/request-object.ts'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'
import { DOMESTIC_INITIATION } from '../pis/support/domestic-initiation.ts'

const NOW = 1_800_000_000
const strict = { security: 'strict', headless: false } as const
const permissive = { security: 'permissive', headless: true } as const

async function refusal(fn: () => unknown): Promise<AuthorisationRequestError> {
  try {
    await fn()
  } catch (err) {
    if (err instanceof AuthorisationRequestError) return err
    throw err
  }
  throw new Error('expected an AuthorisationRequestError')
}

const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
const unsigned = (claims: object) => `${enc({ alg: 'none' })}.${enc(claims)}.`

describe('request object signature per profile', () => {
  let jwks: JSONWebKeySet
  let signed: string
  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true })
    jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'PS256', use: 'sig' }] }
    signed = await new CompactSign(new TextEncoder().encode(JSON.stringify({ iss: 'c' })))
      .setProtectedHeader({ alg: 'PS256', kid: 'k1' })
      .sign(privateKey)
  })

  it('PS256 with the software key passes for both profiles', async () => {
    await expect(
      verifyRequestObjectSignature(signed, decodeRequestObject(signed), strict, jwks),
    ).resolves.toBeUndefined()
    await expect(
      verifyRequestObjectSignature(signed, decodeRequestObject(signed), permissive, jwks),
    ).resolves.toBeUndefined()
  })

  it('a tampered payload, an unknown kid, another alg are refused', async () => {
    const [h, , s] = signed.split('.')
    const tampered = `${h}.${enc({ iss: 'evil' })}.${s}`
    expect(
      (await refusal(() => verifyRequestObjectSignature(tampered, decodeRequestObject(tampered), strict, jwks)))
        .message,
    ).toMatch(/does not verify/)
    const otherKid = `${enc({ alg: 'PS256', kid: 'k9' })}.${enc({})}.${s}`
    expect(
      (await refusal(() => verifyRequestObjectSignature(otherKid, decodeRequestObject(otherKid), strict, jwks)))
        .message,
    ).toMatch(/kid "k9" is not in the software's JWKS/)
    const rs = `${enc({ alg: 'RS256', kid: 'k1' })}.${enc({})}.${s}`
    expect(
      (await refusal(() => verifyRequestObjectSignature(rs, decodeRequestObject(rs), permissive, jwks))).message,
    ).toMatch(/alg is "RS256"; expected "PS256" \(or "none", permissive profile\)/)
  })

  it('alg none: permissive only, with an empty signature', async () => {
    const jwt = unsigned({ iss: 'c' })
    await expect(verifyRequestObjectSignature(jwt, decodeRequestObject(jwt), permissive, jwks)).resolves.toBeUndefined()
    expect(
      (await refusal(() => verifyRequestObjectSignature(jwt, decodeRequestObject(jwt), strict, jwks))).message,
    ).toMatch(/strict profile/)
    const withSig = `${jwt}abc`
    expect(
      (await refusal(() => verifyRequestObjectSignature(withSig, decodeRequestObject(withSig), permissive, jwks)))
        .message,
    ).toMatch(/carries a signature/)
  })

  it('something that is not a JWT is refused', async () => {
    expect((await refusal(() => decodeRequestObject('abc'))).error).toBe('invalid_request_object')
    expect((await refusal(() => decodeRequestObject('a.b.c'))).message).toMatch(/cannot be decoded/)
  })
})

describe('request object times', () => {
  const ok = { nowSeconds: NOW, requireNbf: true }
  it('accepts exp ahead and nbf now', () => {
    expect(() => checkRequestObjectTimes({ exp: NOW + 600, nbf: NOW }, ok)).not.toThrow()
    expect(() => checkRequestObjectTimes({ exp: NOW + 600 }, { ...ok, requireNbf: false })).not.toThrow()
  })
  it.each([
    [{ nbf: NOW }, /no exp claim/],
    [{ exp: 'soon', nbf: NOW }, /exp is "soon"/],
    [{ exp: NOW - 61, nbf: NOW - 600 }, /expired/],
    [{ exp: NOW + 600 }, /no nbf claim/],
    [{ exp: NOW + 600, nbf: NOW + 120 }, /not valid yet/],
    [{ exp: NOW + 600, nbf: NOW - 3700 }, /60 minutes in the past/],
    [{ exp: NOW + 3000, nbf: NOW - 1000 }, /exp is 4000 s after nbf/],
    [{ exp: NOW + 600, nbf: NOW, iat: NOW + 600 }, /iat/],
  ])('%j is refused', async (claims, message) => {
    expect((await refusal(() => checkRequestObjectTimes(claims, ok))).message).toMatch(message)
  })
})

describe('request object parties and intent claim', () => {
  it('iss = client_id, aud = issuer (string or array), client_id matches', async () => {
    expect(() =>
      checkRequestObjectParties({ iss: 'c1', aud: ['x', 'https://as'], client_id: 'c1' }, 'c1', 'https://as'),
    ).not.toThrow()
    expect(
      (await refusal(() => checkRequestObjectParties({ iss: 'c2', aud: 'https://as' }, 'c1', 'https://as'))).message,
    ).toMatch(/iss is "c2"/)
    expect(
      (await refusal(() => checkRequestObjectParties({ iss: 'c1', aud: 'https://as/' }, 'c1', 'https://as'))).message,
    ).toMatch(/aud is "https:\/\/as\/"/)
    expect(
      (
        await refusal(() =>
          checkRequestObjectParties({ iss: 'c1', aud: 'https://as', client_id: 'c9' }, 'c1', 'https://as'),
        )
      ).message,
    ).toMatch(/client_id is "c9"/)
  })

  it('reads openbanking_intent_id from id_token and/or userinfo, as an object or a JSON string', async () => {
    expect(intentIdOf({ claims: { id_token: { openbanking_intent_id: { value: 'aac-1', essential: true } } } })).toBe(
      'aac-1',
    )
    expect(intentIdOf({ claims: JSON.stringify({ userinfo: { openbanking_intent_id: { value: 'aac-2' } } }) })).toBe(
      'aac-2',
    )
    expect((await refusal(() => intentIdOf({}))).message).toMatch(/no claims parameter/)
    expect((await refusal(() => intentIdOf({ claims: { id_token: { acr: null } } }))).message).toMatch(
      /no openbanking_intent_id value/,
    )
    expect(
      (
        await refusal(() =>
          intentIdOf({
            claims: {
              id_token: { openbanking_intent_id: { value: 'a' } },
              userinfo: { openbanking_intent_id: { value: 'b' } },
            },
          }),
        )
      ).message,
    ).toMatch(/different/)
    expect(
      (await refusal(() => intentIdOf({ claims: { id_token: { openbanking_intent_id: { value: 7 } } } }))).message,
    ).toMatch(/value is 7/)
  })
})

describe('intent checks and error redirects', () => {
  let dir: string
  let store: ConsentStore
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ob-auth-unit-'))
    store = new ConsentStore(new EmbeddedStore({ state: dir, auth: dir }), new SandboxClock())
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('exists, owned, AWAU, and the scope matches the kind', async () => {
    const ais = await store.createAis({ clientId: 'c1', permissions: ['ReadAccountsBasic'] })
    const pis = await store.createPis({
      clientId: 'c1',
      data: {
        Initiation: DOMESTIC_INITIATION,
      },
      risk: {},
    })
    expect((await checkIntent(store, ais.consentId, 'c1', ['openid', 'accounts'])).consentId).toBe(ais.consentId)
    expect((await checkIntent(store, pis.consentId, 'c1', ['openid', 'payments'])).consentId).toBe(pis.consentId)
    expect((await refusal(() => checkIntent(store, 'aac-nope', 'c1', ['accounts']))).message).toMatch(
      /names no consent/,
    )
    expect((await refusal(() => checkIntent(store, ais.consentId, 'c2', ['accounts']))).message).toMatch(
      /another client/,
    )
    expect((await refusal(() => checkIntent(store, ais.consentId, 'c1', ['openid', 'payments']))).error).toBe(
      'invalid_scope',
    )
    expect((await refusal(() => checkIntent(store, pis.consentId, 'c1', ['openid', 'accounts']))).error).toBe(
      'invalid_scope',
    )
    await store.authorise(ais.consentId, 'psu-amelia', [])
    expect((await refusal(() => checkIntent(store, ais.consentId, 'c1', ['accounts']))).message).toMatch(
      /has status AUTH/,
    )
  })

  it('errors go in the fragment for ID-token response types, in the query otherwise', () => {
    const frag = new URL(
      errorRedirect('https://tpp.example/cb?x=1', 'code id_token', undefined, {
        error: 'access_denied',
        state: 's',
        error_description: undefined,
      }),
    )
    expect(frag.search).toBe('?x=1')
    expect(new URLSearchParams(frag.hash.slice(1)).get('error')).toBe('access_denied')
    const query = new URL(
      errorRedirect('https://tpp.example/cb', 'code', undefined, { error: 'invalid_request', state: 's' }),
    )
    expect(query.searchParams.get('state')).toBe('s')
    expect(query.hash).toBe('')
    expect(
      new URL(errorRedirect('https://tpp.example/cb', 'code id_token', 'query', { error: 'e' })).searchParams.get(
        'error',
      ),
    ).toBe('e')
  })
})
