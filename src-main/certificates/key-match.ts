import { createHash, createPublicKey, type KeyObject } from 'node:crypto'
import type { CheckResult } from '../contract/checks.ts'
import { AppError } from '../core/app-error.ts'
import { certificateThumbprints, toNodeCertificate } from './inspect.ts'
import { rfc4514 } from './subject-dn.ts'
import type { x509 } from '../plumbing/x509.ts'

/** SHA-256 (hex) of the DER SubjectPublicKeyInfo of a key: the same for a private key and its certificate. */
export function publicKeyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key
  return createHash('sha256')
    .update(pub.export({ format: 'der', type: 'spki' }))
    .digest('hex')
}

/** True when `key` is the private key of `cert` (their public halves are identical). */
export function keyMatchesCertificate(key: KeyObject, cert: x509.X509Certificate): boolean {
  try {
    return toNodeCertificate(cert).checkPrivateKey(key)
  } catch {
    return false
  }
}

/** The key/certificate match as a check, with both public-key fingerprints when they differ. */
export function checkKeyMatch(
  key: KeyObject,
  cert: x509.X509Certificate,
  name = 'Private key matches the certificate',
): CheckResult {
  const certKey = toNodeCertificate(cert).publicKey
  const pass = keyMatchesCertificate(key, cert)
  return {
    name,
    pass,
    expected: `public key sha256 ${publicKeyFingerprint(certKey).slice(0, 16)}… (the certificate's)`,
    actual: `public key sha256 ${publicKeyFingerprint(key).slice(0, 16)}…`,
    ...(pass
      ? {}
      : {
          hint: 'this key is not the one the certificate was issued for: pick the key generated with the CSR of this certificate',
        }),
  }
}

/**
 * Throws KEY_MISMATCH when `key` is not the private key of `cert`, naming the certificate.
 *
 * @example assertKeyMatchesCertificate(key, leaf, 'transport.key')
 */
export function assertKeyMatchesCertificate(
  key: KeyObject,
  cert: x509.X509Certificate,
  source = 'the private key',
): void {
  if (keyMatchesCertificate(key, cert)) return
  throw new AppError('KEY_MISMATCH', {
    what: `Pairing ${source} with the certificate ${rfc4514(cert.subjectName)} failed`,
    cause: 'the key is not the one the certificate was issued for (their public keys differ)',
    fix: 'choose the key generated together with the CSR of this certificate; transport and signing keys are easy to swap',
    details: {
      certificateThumbprint: certificateThumbprints(new Uint8Array(cert.rawData)).x5tS256,
      keyFingerprint: publicKeyFingerprint(key),
      certificateKeyFingerprint: publicKeyFingerprint(toNodeCertificate(cert).publicKey),
    },
  })
}
