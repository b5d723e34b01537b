import type { KeyObject } from 'node:crypto'
import { AppError } from '../core/app-error.ts'
import { assertSupportedKey, parseCertificates, parsePrivateKey } from './import-pem.ts'
import { assertKeyMatchesCertificate, keyMatchesCertificate } from './key-match.ts'
import { PRIVATE_KEY_LABELS, splitPem } from './pem.ts'
import { x509 } from '../plumbing/x509.ts'

/** A certificate with its private key, and the CA certificates that came with it. */
export interface IdentityMaterial {
  leaf: x509.X509Certificate
  /** Other certificates of the input (issuing CA...), in input order. */
  chain: x509.X509Certificate[]
  privateKey: KeyObject
}

export interface IdentityInput {
  /** PEM text with the certificate (and possibly its chain, and possibly the key). */
  certPem?: string
  keyPem?: string
  /** A PKCS#12 (.p12/.pfx) file's bytes, instead of PEM. */
  pkcs12?: Uint8Array
  /** Passphrase of an encrypted key or of the PKCS#12 file. */
  passphrase?: string
  /** How to name the input in errors (a file name). */
  source?: string
}

/**
 * Reads a certificate and its private key from PEM (separate or combined) or PKCS#12, picks the leaf
 * (the certificate the key belongs to), and checks the key type. Throws the certificates layer's
 * AppErrors (CERTIFICATE_INVALID, KEY_INVALID, KEY_UNSUPPORTED, KEY_MISMATCH, PASSPHRASE_*). The PKCS#12
 * reader (node-forge, some 600 KB of code) loads on the first PKCS#12 file, not with every start.
 *
 * @example const { leaf, chain, privateKey } = await importIdentity({ certPem, keyPem, passphrase })
 */
export async function importIdentity(input: IdentityInput): Promise<IdentityMaterial> {
  let certificates: x509.X509Certificate[]
  let privateKey: KeyObject | undefined
  if (input.pkcs12) {
    const source = input.source ?? 'the PKCS#12 file'
    const { importPkcs12 } = await import('./import-pkcs12.ts')
    const contents = importPkcs12(input.pkcs12, input.passphrase, source)
    certificates = contents.certificates
    privateKey = contents.privateKey
    if (!privateKey) {
      throw new AppError('KEY_INVALID', {
        what: `Opening ${source} failed`,
        cause: 'it holds certificates but no private key',
        fix: 'export it again with the private key included (in Windows: "Yes, export the private key")',
      })
    }
  } else {
    if (!input.certPem) {
      throw new AppError('INVALID_INPUT', {
        what: 'Importing the identity failed',
        cause: 'no certificate was given',
        fix: 'give the certificate as PEM, or a PKCS#12 file',
      })
    }
    certificates = parseCertificates(input.certPem, input.source ?? 'the certificate')
    const keyText =
      input.keyPem ?? (splitPem(input.certPem).some((b) => PRIVATE_KEY_LABELS.has(b.label)) ? input.certPem : undefined)
    if (!keyText) {
      throw new AppError('INVALID_INPUT', {
        what: 'Importing the identity failed',
        cause: 'no private key was given',
        fix: 'give the private key of the certificate (PEM), or a PKCS#12 file holding both',
      })
    }
    privateKey = parsePrivateKey(
      keyText,
      input.passphrase,
      input.keyPem ? 'the private key' : (input.source ?? 'the certificate file'),
    )
  }
  assertSupportedKey(privateKey)
  const leaf = certificates.find((c) => keyMatchesCertificate(privateKey, c))
  if (!leaf) {
    const candidate = certificates.find((c) => !c.getExtension(x509.BasicConstraintsExtension)?.ca) ?? certificates[0]!
    assertKeyMatchesCertificate(privateKey, candidate)
  }
  const chosen = leaf!
  return { leaf: chosen, chain: certificates.filter((c) => c !== chosen), privateKey }
}
