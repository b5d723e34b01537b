import { generateKeyPairSync } from 'node:crypto'
import { CompactSign, exportJWK, generateKeyPair, type JWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { compactPs256Problem, ps256KeyObject, ps256PublicKey, Ps256KeyError, verifyPs256 } from '../../../../src-main/local-sandbox/crypto/ps256.ts'

let pair: Awaited<ReturnType<typeof generateKeyPair>>
let jwk: JWK
let other: JWK

const sign = (header: Record<string, unknown>, payload = '{"a":1}') => new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader(header as { alg: string }).sign(pair.privateKey)

beforeAll(async () => {
  pair = await generateKeyPair('PS256', { extractable: true })
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', use: 'sig' }
  other = { ...(await exportJWK((await generateKeyPair('PS256', { extractable: true })).publicKey)), kid: 'k2' }
})

describe('PS256 verification with node:crypto', () => {
  it('verifies what jose signs (PS256: RSA-PSS, SHA-256, 32-byte salt) and nothing else', async () => {
    const jws = await sign({ alg: 'PS256', kid: 'k1' })
    expect(compactPs256Problem(jws, ps256PublicKey(jwk))).toBeUndefined()
    expect(compactPs256Problem(jws, ps256PublicKey(other))).toBe('signature')
    const [h, p, s] = jws.split('.') as [string, string, string]
    expect(compactPs256Problem(`${h}.${Buffer.from('{"a":2}').toString('base64url')}.${s}`, ps256PublicKey(jwk))).toBe('signature')
    expect(compactPs256Problem(`${h}.${p}.${s.slice(0, -4)}`, ps256PublicKey(jwk))).toBe('signature')
    expect(compactPs256Problem(`${h}.${p}`, ps256PublicKey(jwk))).toBe('malformed')
    expect(compactPs256Problem(`${h}.${p}.not*base64`, ps256PublicKey(jwk))).toBe('signature')
    expect(compactPs256Problem(`${Buffer.from('[]').toString('base64url')}.${p}.${s}`, ps256PublicKey(jwk))).toBe('malformed')
    expect(verifyPs256(`${h}.${p}`, s, ps256PublicKey(jwk))).toBe(true)
  })

  it('refuses a header with another alg or with critical extensions, as jose does without crit options', async () => {
    const withCrit = await new CompactSign(new TextEncoder().encode('{}')).setProtectedHeader({ alg: 'PS256', crit: ['x'], x: 1 }).sign(pair.privateKey, { crit: { x: true } })
    expect(verifyPs256(withCrit.split('.').slice(0, 2).join('.'), withCrit.split('.')[2]!, ps256PublicKey(jwk))).toBe(true)
    expect(compactPs256Problem(withCrit, ps256PublicKey(jwk))).toBe('unsupported header')
    const rs = await new CompactSign(new TextEncoder().encode('{}')).setProtectedHeader({ alg: 'RS256' }).sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)
    expect(compactPs256Problem(rs, ps256PublicKey(jwk))).toBe('unsupported header')
  })

  it('makes a key once per distinct JWK, and names what is wrong with an unusable one', () => {
    expect(ps256PublicKey({ ...jwk })).toBe(ps256PublicKey(jwk))
    expect(ps256PublicKey(other)).not.toBe(ps256PublicKey(jwk))
    expect(() => ps256PublicKey({ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' })).toThrow(new Ps256KeyError('its kty is "EC", not "RSA"'))
    expect(() => ps256PublicKey({ kty: 'RSA', e: 'AQAB' })).toThrow(/not a valid RSA public key/)
    expect(() => ps256PublicKey({ ...jwk, d: 'secret' })).toThrow(/private key material/)
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }) as JWK
    expect(() => ps256PublicKey(small)).toThrow(/2048 bits or more; this key has 1024/)
  })

  it('turns a WebCrypto key into a KeyObject once', async () => {
    const k = ps256KeyObject(pair.publicKey)
    expect(ps256KeyObject(pair.publicKey)).toBe(k)
    expect(compactPs256Problem(await sign({ alg: 'PS256' }), k)).toBeUndefined()
  })
})
