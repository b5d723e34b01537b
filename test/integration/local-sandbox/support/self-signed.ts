import { x509 } from '../../../../src-main/plumbing/x509.ts'
import { certToPem, generateRsaKeys, keysFromPem } from '../../../../src-main/local-sandbox/pki/certificate-factory.ts'
import { TestTpp } from './test-tpp.ts'

const RSA_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const

/** A self-signed certificate made now: the issued transport certificate's subject (or `subject`), its key (or a new one). */
export async function selfSigned(
  tpp: TestTpp,
  opts: { newKey?: boolean; subject?: string } = {},
): Promise<{ certPem: string; keyPem: string }> {
  const issued = new x509.X509Certificate(tpp.kit.transportCertPem)
  const keys = opts.newKey ? await generateRsaKeys() : await keysFromPem(tpp.kit.transportKeyPem, issued)
  const now = Date.now()
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: opts.subject ?? issued.subject,
    keys,
    serialNumber: '01ab',
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + 86400_000),
    signingAlgorithm: RSA_SHA256,
    extensions: [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])],
  })
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey)
  return { certPem: certToPem(cert), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') + '\n' }
}

/** The same TPP presenting another transport certificate. */
export function withCertificate(tpp: TestTpp, cert: { certPem: string; keyPem: string }): TestTpp {
  return new TestTpp(tpp.sandbox, { ...tpp.kit, transportCertPem: cert.certPem, transportKeyPem: cert.keyPem })
}
