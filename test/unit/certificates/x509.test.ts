import { describe, expect, it } from 'vitest'
import { x509 } from '../../../src-main/certificates/x509.ts'

describe('x509 setup', () => {
  it('loads @peculiar/x509 with reflect-metadata and Node WebCrypto, so certificates can be created', async () => {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=x',
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    })
    expect(await cert.verify({ publicKey: cert.publicKey, signatureOnly: true })).toBe(true)
  })
})
