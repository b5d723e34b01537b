// The one place that loads @peculiar/x509, for the console's certificates and the local sandbox's PKI alike:
// `reflect-metadata` must be imported first (the library's tsyringe needs it), and the library must use Node's
// WebCrypto. Also what issuing a certificate takes on both sides and holds no rule of either: a serial number
// and the extensions of a CA or an end-entity certificate.
import 'reflect-metadata'
import { randomBytes, type webcrypto } from 'node:crypto'
import * as x509 from '@peculiar/x509'

// Given as the global `crypto` (the same object as node:crypto's webcrypto), whose type is the one each typing
// (Node's, or the DOM's in the end-to-end tests' build) expects.
x509.cryptoProvider.set(globalThis.crypto)

export { x509 }

/** A positive random 128-bit serial number, as hex (RFC 5280 4.1.2.2: positive, at most 20 octets). */
export function certificateSerialNumber(): string {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0]! & 0x7f) | 0x01
  return bytes.toString('hex')
}

/** What a new certificate is for. */
export interface CertificateUse {
  /** A CA certificate (basicConstraints cA, keyCertSign, cRLSign) allowing `pathLength` CAs below it. */
  ca?: { pathLength?: number }
  /** Extended key usages, as OIDs (`x509.ExtendedKeyUsage.clientAuth`). */
  extendedKeyUsages?: readonly string[]
  subjectAltNames?: x509.JsonGeneralNames
}

/**
 * The extensions of a new certificate over `publicKey`: basic constraints and key usage (critical) for a CA
 * or an end-entity certificate, the extended key usages and subject alternative names asked for, the subject
 * key identifier, and the authority key identifier of `issuerPublicKey` (the certificate's own key when self-signed).
 */
export async function certificateExtensions(
  use: CertificateUse,
  publicKey: webcrypto.CryptoKey,
  issuerPublicKey: webcrypto.CryptoKey,
): Promise<x509.Extension[]> {
  const extensions: x509.Extension[] = use.ca
    ? [
        new x509.BasicConstraintsExtension(true, use.ca.pathLength, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ]
    : [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      ]
  if (use.extendedKeyUsages?.length)
    extensions.push(new x509.ExtendedKeyUsageExtension([...use.extendedKeyUsages], false))
  if (use.subjectAltNames?.length) extensions.push(new x509.SubjectAlternativeNameExtension(use.subjectAltNames, false))
  extensions.push(await x509.SubjectKeyIdentifierExtension.create(publicKey))
  extensions.push(await x509.AuthorityKeyIdentifierExtension.create(issuerPublicKey))
  return extensions
}
