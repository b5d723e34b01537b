import { webcrypto } from 'node:crypto'
import { certificateExtensions, certificateSerialNumber, x509, type CertificateUse } from '../plumbing/x509.ts'

type CryptoKeyPair = webcrypto.CryptoKeyPair
type Algorithm = webcrypto.Algorithm
type RsaHashedKeyGenParams = webcrypto.RsaHashedKeyGenParams
type EcKeyGenParams = webcrypto.EcKeyGenParams

/** Key types the console generates: RSA for Open Banking (PS256 needs RSA), EC for tests and tools. */
export type GeneratedKeyType = 'RSA-2048' | 'RSA-3072' | 'EC-P256' | 'EC-P384'

/** A key pair and a certificate over its public half, as objects and as PEM. */
export interface GeneratedCertificate {
  cert: x509.X509Certificate
  keys: CryptoKeyPair
  certPem: string
  /** PKCS#8 PEM (a block labelled `PRIVATE KEY`). */
  keyPem: string
}

export interface CertificateParams {
  /** Subject DN in RFC 4514 order as a string (`CN=x, OU=y, O=z, C=GB`) or x509 JSON (ASN.1 order). */
  subject: string | x509.JsonName
  keyType?: GeneratedKeyType
  /** Default: now minus one hour (absorbs clock skew). */
  notBefore?: Date
  /** Default: notBefore plus `validDays`. */
  notAfter?: Date
  validDays?: number
  /** A CA certificate (basicConstraints cA, keyCertSign) allowing `pathLength` intermediates below it. */
  ca?: { pathLength?: number }
  /** DNS names and IP addresses. */
  subjectAltNames?: Array<{ type: 'dns' | 'ip'; value: string }>
  extendedKeyUsages?: Array<'serverAuth' | 'clientAuth'>
}

const DAY_MS = 86_400_000
const EKU = { serverAuth: x509.ExtendedKeyUsage.serverAuth, clientAuth: x509.ExtendedKeyUsage.clientAuth } as const

function algorithmFor(keyType: GeneratedKeyType): { gen: RsaHashedKeyGenParams | EcKeyGenParams; sign: Algorithm } {
  switch (keyType) {
    case 'RSA-2048':
    case 'RSA-3072': {
      const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
      return {
        gen: { ...alg, modulusLength: keyType === 'RSA-2048' ? 2048 : 3072, publicExponent: new Uint8Array([1, 0, 1]) },
        sign: alg,
      }
    }
    case 'EC-P256':
      return { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } as Algorithm }
    case 'EC-P384':
      return { gen: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } as Algorithm }
  }
}

/**
 * Generates an extractable key pair for certificates.
 *
 * @example const keys = await generateKeyPair('RSA-2048')
 */
export async function generateKeyPair(keyType: GeneratedKeyType = 'RSA-2048'): Promise<CryptoKeyPair> {
  const { gen } = algorithmFor(keyType)
  return (await webcrypto.subtle.generateKey(gen, true, ['sign', 'verify'])) as CryptoKeyPair
}

async function toGenerated(cert: x509.X509Certificate, keys: CryptoKeyPair): Promise<GeneratedCertificate> {
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)
  return {
    cert,
    keys,
    certPem: cert.toString('pem').trim() + '\n',
    keyPem: x509.PemConverter.encode(der, 'PRIVATE KEY').trim() + '\n',
  }
}

function subjectName(subject: string | x509.JsonName): x509.Name {
  if (typeof subject !== 'string') return new x509.Name(subject)
  // An RFC 4514 string lists the last RDN first; the certificate stores them the other way round.
  const parsed = new x509.Name(subject).toJSON()
  return new x509.Name(parsed.reverse())
}

function certificateUse(params: CertificateParams): CertificateUse {
  return {
    ...(params.ca ? { ca: params.ca } : {}),
    ...(params.extendedKeyUsages ? { extendedKeyUsages: params.extendedKeyUsages.map((u) => EKU[u]) } : {}),
    ...(params.subjectAltNames ? { subjectAltNames: params.subjectAltNames } : {}),
  }
}

function validity(params: CertificateParams, now: Date): { notBefore: Date; notAfter: Date } {
  const notBefore = params.notBefore ?? new Date(now.getTime() - 3_600_000)
  const notAfter = params.notAfter ?? new Date(notBefore.getTime() + (params.validDays ?? 365) * DAY_MS)
  return { notBefore, notAfter }
}

/**
 * Creates a self-signed certificate: a root CA (`ca` set) or a self-signed end-entity certificate, such
 * as the ones the bank's sandbox accepts for mutual TLS.
 *
 * @example const root = await createSelfSignedCertificate({ subject: 'CN=Test Root CA, O=Example', ca: { pathLength: 1 } })
 */
export async function createSelfSignedCertificate(
  params: CertificateParams,
  now: Date = new Date(),
  existingKeys?: CryptoKeyPair,
): Promise<GeneratedCertificate> {
  const keyType = params.keyType ?? 'RSA-2048'
  // `existingKeys`: the certificate is over a key pair already made (the one a CSR was made with).
  const keys = existingKeys ?? (await generateKeyPair(keyType))
  const name = subjectName(params.subject)
  const cert = await x509.X509CertificateGenerator.create({
    subject: name,
    issuer: name,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    serialNumber: certificateSerialNumber(),
    signingAlgorithm: algorithmFor(keyType).sign,
    ...validity(params, now),
    extensions: await certificateExtensions(certificateUse(params), keys.publicKey, keys.publicKey),
  })
  return toGenerated(cert, keys)
}

/**
 * Issues a certificate signed by `issuer` (an intermediate CA when `ca` is set, else an end-entity
 * certificate).
 *
 * @example const leaf = await issueCertificate(issuing, { subject: 'CN=software, OU=org, O=TPP, C=GB', extendedKeyUsages: ['clientAuth'] })
 */
export async function issueCertificate(
  issuer: GeneratedCertificate,
  params: CertificateParams,
  now: Date = new Date(),
): Promise<GeneratedCertificate> {
  const keyType = params.keyType ?? 'RSA-2048'
  const keys = await generateKeyPair(keyType)
  const issuerAlg = issuer.keys.privateKey.algorithm as { name: string; namedCurve?: string }
  const signingAlgorithm: Algorithm =
    issuerAlg.name === 'ECDSA'
      ? ({ name: 'ECDSA', hash: issuerAlg.namedCurve === 'P-384' ? 'SHA-384' : 'SHA-256' } as Algorithm)
      : ({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as Algorithm)
  const cert = await x509.X509CertificateGenerator.create({
    subject: subjectName(params.subject),
    issuer: issuer.cert.subjectName,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    serialNumber: certificateSerialNumber(),
    signingAlgorithm,
    ...validity(params, now),
    extensions: await certificateExtensions(certificateUse(params), keys.publicKey, issuer.keys.publicKey),
  })
  return toGenerated(cert, keys)
}

/** The subject of an Open Banking transport or signing certificate: `C`, `O`, `OU` = organisation id, `CN` = software id. */
export interface OpenBankingSubject {
  orgId: string
  softwareId: string
  /** The directory's `O` (the Open Banking directory uses "OpenBanking"). */
  organisation?: string
  country?: string
}

/** The subject in certificate (ASN.1) order, C, O, OU, CN, so it reads `CN=…,OU=…,O=…,C=GB`. */
export function openBankingSubject(s: OpenBankingSubject): x509.JsonName {
  return [
    { C: [s.country ?? 'GB'] },
    { O: [s.organisation ?? 'OpenBanking'] },
    { OU: [s.orgId] },
    { CN: [s.softwareId] },
  ]
}

/** A key pair, a PKCS#10 certificate signing request over it, as objects and as PEM. */
export interface GeneratedRequest {
  csr: x509.Pkcs10CertificateRequest
  keys: CryptoKeyPair
  csrPem: string
  /** PKCS#8 PEM of the private key: main side only, straight into the encrypted store. */
  keyPem: string
}

/**
 * Generates a key pair and a CSR for upload to a directory (signed with the new key: SHA-256 with RSA, or
 * ECDSA), with the subject given.
 *
 * @example const req = await createCertificateRequest({ subject: openBankingSubject({ orgId, softwareId }), keyType: 'RSA-2048' })
 */
export async function createCertificateRequest(params: {
  subject: string | x509.JsonName
  keyType?: GeneratedKeyType
}): Promise<GeneratedRequest> {
  const keyType = params.keyType ?? 'RSA-2048'
  const keys = await generateKeyPair(keyType)
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subjectName(params.subject),
    keys,
    signingAlgorithm: algorithmFor(keyType).sign,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    ],
  })
  const der = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)
  return {
    csr,
    keys,
    csrPem: csr.toString('pem').trim() + '\n',
    keyPem: x509.PemConverter.encode(der, 'PRIVATE KEY').trim() + '\n',
  }
}
