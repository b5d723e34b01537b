import { CompactSign, compactVerify, exportJWK, generateKeyPair } from 'jose'
import { describe, expect, it } from 'vitest'
import { ps256VerificationKey } from '../../../../src-main/local-sandbox/crypto/verification-keys.ts'

describe('ps256VerificationKey', () => {
  it('imports a JWK once and hands the same key to later verifications; another JWK is another key', async () => {
    const a = await generateKeyPair('PS256', { extractable: true })
    const b = await generateKeyPair('PS256', { extractable: true })
    const jwkA = { ...(await exportJWK(a.publicKey)), kid: 'a' }
    const jwkB = { ...(await exportJWK(b.publicKey)), kid: 'b' }
    const first = await ps256VerificationKey(jwkA)
    expect(await ps256VerificationKey({ ...jwkA })).toBe(first)
    expect(await ps256VerificationKey(jwkB)).not.toBe(first)
    const jws = await new CompactSign(new TextEncoder().encode('x'))
      .setProtectedHeader({ alg: 'PS256' })
      .sign(a.privateKey)
    await expect(compactVerify(jws, first, { algorithms: ['PS256'] })).resolves.toBeDefined()
    await expect(compactVerify(jws, await ps256VerificationKey(jwkB), { algorithms: ['PS256'] })).rejects.toThrow()
  })

  it("passes the import's error on for a JWK that is not an RSA public key, on every call", async () => {
    const bad = { kty: 'RSA', e: 'AQAB', kid: 'no-modulus' }
    await expect(ps256VerificationKey(bad)).rejects.toThrow()
    await expect(ps256VerificationKey(bad)).rejects.toThrow()
  })
})
