import { createPrivateKey } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  assertKeyMatchesCertificate,
  checkKeyMatch,
  keyMatchesCertificate,
  publicKeyFingerprint,
} from '../../../src-main/certificates/key-match.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

describe('key and certificate match', () => {
  it('matches a certificate with its own key only', () => {
    const key = createPrivateKey(pki.transport.keyPem)
    expect(keyMatchesCertificate(key, pki.transport.cert)).toBe(true)
    expect(keyMatchesCertificate(key, pki.issuing.cert)).toBe(false)
    expect(keyMatchesCertificate(createPrivateKey(pki.otherLeaf.keyPem), pki.transport.cert)).toBe(false)
  })

  it('reports the match as a check with both fingerprints', () => {
    const ok = checkKeyMatch(createPrivateKey(pki.transport.keyPem), pki.transport.cert)
    expect(ok.pass).toBe(true)
    const bad = checkKeyMatch(createPrivateKey(pki.issuing.keyPem), pki.transport.cert)
    expect(bad.pass).toBe(false)
    expect(bad.expected).not.toBe(bad.actual)
    expect(bad.hint).toMatch(/not the one the certificate was issued for/)
  })

  it('throws KEY_MISMATCH naming the certificate', () => {
    try {
      assertKeyMatchesCertificate(createPrivateKey(pki.issuing.keyPem), pki.transport.cert, 'transport.key')
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('KEY_MISMATCH')
      expect(isAppError(err) && err.what).toMatch(/^Pairing transport.key with the certificate CN=/)
    }
    expect(() => assertKeyMatchesCertificate(createPrivateKey(pki.transport.keyPem), pki.transport.cert)).not.toThrow()
  })

  it('fingerprints the same public key identically from the private key and the certificate', () => {
    const key = createPrivateKey(pki.transport.keyPem)
    expect(publicKeyFingerprint(key)).toMatch(/^[0-9a-f]{64}$/)
  })
})
