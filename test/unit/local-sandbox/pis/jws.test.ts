import { exportJWK, generateKeyPair, type CryptoKey, type JSONWebKeySet } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'
import { checkJwsHeader } from '../../../../src-main/local-sandbox/pis/jws/check-jws-header.ts'
import { OB_CRIT, OB_IAT, OB_ISS, OB_TAN } from '../../../../src-main/local-sandbox/pis/jws/ob-jws-header.ts'
import { parseDetachedJws } from '../../../../src-main/local-sandbox/pis/jws/parse-detached-jws.ts'
import { signDetachedJws } from '../../../../src-main/local-sandbox/pis/jws/sign-detached-jws.ts'
import { verifyRequestJws } from '../../../../src-main/local-sandbox/pis/jws/verify-request-jws.ts'

function codesOf(fn: () => unknown): string[] {
  try {
    fn()
  } catch (err) {
    if (err instanceof ObApiError) return err.details.map((d) => d.code)
    throw err
  }
  return []
}

async function codesOfAsync(p: Promise<unknown>): Promise<string[]> {
  try {
    await p
  } catch (err) {
    if (err instanceof ObApiError) return err.details.map((d) => d.code)
    throw err
  }
  return []
}

const NOW = 1_750_000_000
const ISS = '0015800001041RHAAY/HQuZPIt3ipkh33Uxytox1E'
const header = (over: Record<string, unknown> = {}) => ({
  alg: 'PS256',
  kid: 'k1',
  [OB_IAT]: NOW - 5,
  [OB_ISS]: ISS,
  [OB_TAN]: 'openbanking.org.uk',
  crit: [...OB_CRIT],
  ...over,
})

describe('parseDetachedJws', () => {
  it('splits a detached JWS and decodes its header', () => {
    const h = Buffer.from('{"alg":"PS256"}').toString('base64url')
    expect(parseDetachedJws(`${h}..c2ln`)).toEqual({ protectedB64: h, signatureB64: 'c2ln', header: { alg: 'PS256' } })
  })
  it('U019 for absent or blank, U018 for every malformed shape', () => {
    expect(codesOf(() => parseDetachedJws(undefined))).toEqual(['U019'])
    expect(codesOf(() => parseDetachedJws('  '))).toEqual(['U019'])
    for (const bad of [
      'abc',
      'a.b',
      'a.b.c',
      'a..',
      '..c',
      'a..c.d',
      '!!..c',
      `${Buffer.from('[1]').toString('base64url')}..c`,
      `${Buffer.from('nope').toString('base64url')}..c`,
    ]) {
      expect(
        codesOf(() => parseDetachedJws(bad)),
        bad,
      ).toEqual(['U018'])
    }
  })
})

describe('checkJwsHeader', () => {
  const expect_ = { iss: ISS, nowSeconds: NOW }
  it('accepts the v4.0 header with or without typ and cty', () => {
    expect(codesOf(() => checkJwsHeader(header(), expect_))).toEqual([])
    expect(codesOf(() => checkJwsHeader(header({ typ: 'JOSE', cty: 'json' }), expect_))).toEqual([])
    expect(codesOf(() => checkJwsHeader(header({ cty: 'application/json' }), expect_))).toEqual([])
  })
  it('U017 per missing claim', () => {
    for (const claim of ['alg', 'kid', OB_IAT, OB_ISS, OB_TAN, 'crit']) {
      const h = header()
      delete (h as Record<string, unknown>)[claim]
      expect(
        codesOf(() => checkJwsHeader(h, expect_)),
        claim,
      ).toEqual(['U017'])
    }
  })
  it('U016 per claim with a wrong value', () => {
    const cases: Array<Record<string, unknown>> = [
      { alg: 'RS256' },
      { alg: 'none' },
      { kid: '' },
      { kid: 7 },
      { typ: 'JWT' },
      { cty: 'text/plain' },
      { [OB_IAT]: NOW + 61 },
      { [OB_IAT]: `${NOW}` },
      { [OB_ISS]: 'someone/else' },
      { [OB_TAN]: 'openbanking.org' },
      { crit: [OB_IAT, OB_ISS] },
      { crit: [...OB_CRIT, 'b64'] },
      { crit: 'all' },
      { b64: false },
      { x5u: 'https://x' },
    ]
    for (const over of cases)
      expect(
        codesOf(() => checkJwsHeader(header(over), expect_)),
        JSON.stringify(over),
      ).toContain('U016')
  })
  it('allows an iat up to 60 s ahead of the sandbox clock', () => {
    expect(codesOf(() => checkJwsHeader(header({ [OB_IAT]: NOW + 60 }), expect_))).toEqual([])
  })
})

describe('signDetachedJws + verifyRequestJws', () => {
  let privateKey: CryptoKey
  let jwks: JSONWebKeySet
  const body = Buffer.from('{"Data":{"x":"£1"}}')

  beforeAll(async () => {
    const pair = await generateKeyPair('PS256', { extractable: true })
    privateKey = pair.privateKey
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', use: 'sig' }] }
  })

  const input = (signature: string, over: Partial<Parameters<typeof verifyRequestJws>[0]> = {}) => ({
    signature,
    body,
    expectedIss: ISS,
    jwks,
    jwksLabel: 'test jwks',
    nowSeconds: NOW + 10,
    ...over,
  })

  it('round-trips: the sandbox signer produces what the verifier accepts', async () => {
    const sig = await signDetachedJws(body, { kid: 'k1', privateKey }, { iss: ISS, iat: NOW })
    expect(sig).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/)
    const verified = await verifyRequestJws(input(sig))
    expect(verified).toMatchObject({
      alg: 'PS256',
      kid: 'k1',
      typ: 'JOSE',
      cty: 'application/json',
      [OB_ISS]: ISS,
      crit: OB_CRIT,
    })
    expect(verified).not.toHaveProperty('b64')
  })

  it('U015 for a changed body, an unknown kid, no JWKS, or a non-RSA key', async () => {
    const sig = await signDetachedJws(body, { kid: 'k1', privateKey }, { iss: ISS, iat: NOW })
    expect(await codesOfAsync(verifyRequestJws(input(sig, { body: Buffer.from('{"Data":{"x":"£2"}}') })))).toEqual([
      'U015',
    ])
    expect(await codesOfAsync(verifyRequestJws(input(sig, { body: Buffer.from(' {"Data":{"x":"£1"}}') })))).toEqual([
      'U015',
    ])
    const other = await signDetachedJws(body, { kid: 'k2', privateKey }, { iss: ISS, iat: NOW })
    expect(await codesOfAsync(verifyRequestJws(input(other)))).toEqual(['U015'])
    expect(await codesOfAsync(verifyRequestJws(input(sig, { jwks: undefined })))).toEqual(['U015'])
    const ec = await generateKeyPair('ES256', { extractable: true })
    const ecJwks = { keys: [{ ...(await exportJWK(ec.publicKey)), kid: 'k1' }] }
    expect(await codesOfAsync(verifyRequestJws(input(sig, { jwks: ecJwks })))).toEqual(['U015'])
  })

  it('checks claims before the key: a wrong iss is U016 even with a good signature', async () => {
    const sig = await signDetachedJws(body, { kid: 'k1', privateKey }, { iss: 'other/iss', iat: NOW })
    expect(await codesOfAsync(verifyRequestJws(input(sig)))).toEqual(['U016'])
  })
})
