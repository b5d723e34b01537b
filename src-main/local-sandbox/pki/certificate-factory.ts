import { webcrypto } from 'node:crypto'
import { rsaKeyPair } from '../../plumbing/rsa-key-pairs.ts'
import { certificateExtensions, certificateSerialNumber, x509 } from '../../plumbing/x509.ts'

type CryptoKey = webcrypto.CryptoKey
type CryptoKeyPair = webcrypto.CryptoKeyPair

/** RSA with SHA-256, PKCS#1 v1.5: the certificate signature algorithm of the Open Banking PKI. */
const RSA_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const
const DAY_MS = 24 * 60 * 60 * 1000

export type { CryptoKey, CryptoKeyPair }

/** A key pair and the certificate over its public half. */
export interface IssuedCertificate {
  cert: x509.X509Certificate
  keys: CryptoKeyPair
}

/**
 * A new RSA key pair for a certificate (2048 bits, e = 65537), extractable so it can be written as PKCS#8: one
 * made ahead when the command made some (`plumbing/rsa-key-pairs.ts`), else made now.
 */
export function generateRsaKeys(): Promise<CryptoKeyPair> {
  return rsaKeyPair(RSA_SHA256.name)
}

/** The private key as a PKCS#8 PEM (a block labelled `PRIVATE KEY`). */
export async function privateKeyToPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key)
  return x509.PemConverter.encode(der, 'PRIVATE KEY') + '\n'
}

/** Reads a PKCS#8 PEM RSA key back into a key pair usable for signing certificates. */
export async function keysFromPem(keyPem: string, cert: x509.X509Certificate): Promise<CryptoKeyPair> {
  const der = x509.PemConverter.decodeFirst(keyPem)
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, RSA_SHA256, true, ['sign'])
  const publicKey = await cert.publicKey.export(RSA_SHA256, ['verify'])
  return { privateKey, publicKey }
}

export function certToPem(cert: x509.X509Certificate): string {
  return cert.toString('pem').trim() + '\n'
}

function validity(now: Date, days: number): { notBefore: Date; notAfter: Date } {
  // One hour of back-dating absorbs small clock skew between the sandbox and its clients.
  return { notBefore: new Date(now.getTime() - 60 * 60 * 1000), notAfter: new Date(now.getTime() + days * DAY_MS) }
}

export interface CaParams {
  name: x509.JsonName
  validDays: number
  /** How many intermediate CAs may follow this one in a chain. */
  pathLength: number
  now: Date
}

/** A self-signed root CA certificate. */
export async function createRootCa(params: CaParams): Promise<IssuedCertificate> {
  const keys = await generateRsaKeys()
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: params.name,
    keys,
    serialNumber: certificateSerialNumber(),
    signingAlgorithm: RSA_SHA256,
    ...validity(params.now, params.validDays),
    extensions: await certificateExtensions({ ca: { pathLength: params.pathLength } }, keys.publicKey, keys.publicKey),
  })
  return { cert, keys }
}

/** A certificate issued by `issuer`: an intermediate CA (`ca` set) or an end-entity certificate. */
export async function issueCertificate(
  issuer: IssuedCertificate,
  params: {
    subject: x509.JsonName
    validDays: number
    now: Date
    ca?: { pathLength: number }
    extendedKeyUsages?: x509.ExtendedKeyUsage[]
    subjectAltNames?: x509.JsonGeneralNames
  },
): Promise<IssuedCertificate> {
  const keys = await generateRsaKeys()
  const cert = await x509.X509CertificateGenerator.create({
    subject: params.subject,
    issuer: issuer.cert.subject,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    serialNumber: certificateSerialNumber(),
    signingAlgorithm: RSA_SHA256,
    ...validity(params.now, params.validDays),
    extensions: await certificateExtensions(params, keys.publicKey, issuer.keys.publicKey),
  })
  return { cert, keys }
}

export { x509 }
