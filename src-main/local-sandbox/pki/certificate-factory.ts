import 'reflect-metadata'
import { randomBytes, webcrypto } from 'node:crypto'
import * as x509 from '@peculiar/x509'
import { rsaKeyPair } from '../../plumbing/rsa-key-pairs.ts'

type CryptoKey = webcrypto.CryptoKey
type CryptoKeyPair = webcrypto.CryptoKeyPair

// Node's WebCrypto is the Crypto the library asks for. Given as the global `crypto` (the same object as
// node:crypto's webcrypto), whose type is the one each typing (Node's, or the DOM's in the e2e build) expects.
x509.cryptoProvider.set(globalThis.crypto)

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

/** A positive random 128-bit serial number, as hex (RFC 5280 4.1.2.2: positive, at most 20 octets). */
function serialNumber(): string {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0]! & 0x7f) | 0x01
  return bytes.toString('hex')
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
    serialNumber: serialNumber(),
    signingAlgorithm: RSA_SHA256,
    ...validity(params.now, params.validDays),
    extensions: [
      new x509.BasicConstraintsExtension(true, params.pathLength, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
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
  const extensions: x509.Extension[] = params.ca
    ? [
        new x509.BasicConstraintsExtension(true, params.ca.pathLength, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ]
    : [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      ]
  if (params.extendedKeyUsages?.length)
    extensions.push(new x509.ExtendedKeyUsageExtension(params.extendedKeyUsages, false))
  if (params.subjectAltNames?.length)
    extensions.push(new x509.SubjectAlternativeNameExtension(params.subjectAltNames, false))
  extensions.push(await x509.SubjectKeyIdentifierExtension.create(keys.publicKey))
  extensions.push(await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey))
  const cert = await x509.X509CertificateGenerator.create({
    subject: params.subject,
    issuer: issuer.cert.subject,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    serialNumber: serialNumber(),
    signingAlgorithm: RSA_SHA256,
    ...validity(params.now, params.validDays),
    extensions,
  })
  return { cert, keys }
}

export { x509 }
