import { FlattenedSign, base64url, flattenedVerify, createLocalJWKSet } from 'jose'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import {
  OB_CRIT,
  OB_IAT,
  OB_ISS,
  OB_TAN,
  signDetachedJws,
  verifyDetachedJws,
} from '../../../src-main/signing/detached-jws.ts'
import { jwksOf, rsaSigner } from './keys-fixture.ts'

const signer = rsaSigner('tpp-kid')
const jwks = jwksOf(signer)
const now = 1767225600
const body = '{"Data":{"Initiation":{"InstructionIdentification":"i1"}},"Risk":{}}'
const failing = (checks: Array<{ name: string; pass: boolean }>) => checks.filter((c) => !c.pass).map((c) => c.name)

describe('signDetachedJws', () => {
  it('signs the exact body bytes with the three OB crit claims and no b64 (TOOLCHAIN snippet F)', async () => {
    const sig = await signDetachedJws(body, { signer, orgId: 'Org001', softwareId: 'Soft001', now })
    const [h, p, s] = sig.split('.')
    expect(p).toBe('')
    const header = JSON.parse(Buffer.from(h!, 'base64url').toString())
    expect(header).toEqual({
      alg: 'PS256',
      kid: 'tpp-kid',
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: now,
      [OB_ISS]: 'Org001/Soft001',
      [OB_TAN]: 'openbanking.org.uk',
      crit: OB_CRIT,
    })
    const crit = { crit: Object.fromEntries(OB_CRIT.map((c) => [c, true])) }
    await expect(
      flattenedVerify({ protected: h!, payload: base64url.encode(body), signature: s! }, createLocalJWKSet(jwks), {
        ...crit,
        algorithms: ['PS256'],
      }),
    ).resolves.toBeTruthy()
  })

  it('refuses an empty org or software id', async () => {
    try {
      await signDetachedJws(body, { signer, orgId: '', softwareId: 'x', now })
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
    }
  })
})

describe('verifyDetachedJws', () => {
  it('passes every check for a good signature, also given the body as bytes', async () => {
    const sig = await signDetachedJws(body, { signer, orgId: 'Org001', softwareId: 'Soft001', now })
    const result = await verifyDetachedJws(sig, new TextEncoder().encode(body), {
      jwks,
      now: now + 5,
      expectedIss: 'Org001/Soft001',
    })
    expect(failing(result.checks)).toEqual([])
    expect(result.valid).toBe(true)
    expect(result.checks.map((c) => c.name)).toEqual([
      'x-jws-signature format',
      'header claims',
      'alg',
      'typ',
      'cty',
      'kid',
      OB_IAT,
      OB_ISS,
      OB_TAN,
      'crit',
      'signature',
    ])
  })

  it('fails the signature when one byte of the body changed (whitespace included)', async () => {
    const sig = await signDetachedJws(body, { signer, orgId: 'Org001', softwareId: 'Soft001', now })
    const result = await verifyDetachedJws(sig, body.replace('{"Data"', '{ "Data"'), { jwks, now })
    expect(failing(result.checks)).toEqual(['signature'])
    expect(result.checks.at(-1)!.actual).toBe('does not match the body')
  })

  it('reports an unknown kid, a future iat, another iss and a missing signature', async () => {
    const sig = await signDetachedJws(body, { signer, orgId: 'Org001', softwareId: 'Soft001', now: now + 600 })
    const result = await verifyDetachedJws(sig, body, { jwks: jwksOf(rsaSigner('other')), now, expectedIss: 'Bank001' })
    expect(failing(result.checks)).toEqual(['kid', OB_IAT, OB_ISS, 'signature'])
    expect((await verifyDetachedJws(undefined, body, { jwks, now })).checks).toMatchObject([
      { name: 'x-jws-signature present', pass: false },
    ])
    expect(failing((await verifyDetachedJws('abc.def.ghi', body, { jwks, now })).checks)).toEqual([
      'x-jws-signature format',
    ])
  })

  it('flags the pre-3.1.4 b64=false form', async () => {
    const crit = ['b64', ...OB_CRIT]
    const jws = await new FlattenedSign(new TextEncoder().encode(body))
      .setProtectedHeader({
        alg: 'PS256',
        kid: 'tpp-kid',
        b64: false,
        [OB_IAT]: now,
        [OB_ISS]: 'Org001/Soft001',
        [OB_TAN]: 'openbanking.org.uk',
        crit,
      })
      .sign(signer.key, { crit: Object.fromEntries(OB_CRIT.map((c) => [c, true])) })
    const result = await verifyDetachedJws(`${jws.protected}..${jws.signature}`, body, { jwks, now })
    expect(failing(result.checks)).toEqual(['header claims', 'crit', 'signature'])
    expect(result.checks.find((c) => c.name === 'header claims')!.hint).toMatch(/b64 is not used since v3.1.4/)
  })
})
