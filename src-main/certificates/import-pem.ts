import { createPrivateKey, type KeyObject } from 'node:crypto'
import { AppError } from '../core/app-error.ts'
import { CERTIFICATE_LABELS, PRIVATE_KEY_LABELS, isPem, splitPem, type PemBlock } from './pem.ts'
import { x509 } from '../plumbing/x509.ts'

/** What a PEM block holds, in words, for errors that say "this is X, not Y". */
function describeLabel(label: string): string {
  if (CERTIFICATE_LABELS.has(label)) return 'a certificate'
  if (PRIVATE_KEY_LABELS.has(label)) return `a private key (${label})`
  if (label === 'CERTIFICATE REQUEST' || label === 'NEW CERTIFICATE REQUEST')
    return 'a certificate signing request (CSR)'
  if (label === 'PUBLIC KEY' || label === 'RSA PUBLIC KEY') return 'a public key'
  if (label === 'X509 CRL') return 'a certificate revocation list'
  if (label === 'PKCS7') return 'a PKCS#7 bundle'
  return `a "${label}" block`
}

function parseCertificateDer(der: Uint8Array, source: string, index: number): x509.X509Certificate {
  try {
    return new x509.X509Certificate(der)
  } catch (err) {
    throw new AppError('CERTIFICATE_INVALID', {
      what: `Reading ${source} failed`,
      cause: `certificate ${index + 1} is not a valid X.509 certificate (${(err as Error).message}); the file may be cut or altered`,
      fix: 'export the certificate again from where it was issued (the directory, your CA) and paste the whole PEM, BEGIN and END lines included',
      source: err,
    })
  }
}

/**
 * Reads every certificate of a PEM text (or one DER certificate), in order. Throws CERTIFICATE_INVALID
 * naming what the input holds instead (a key, a CSR...) or which certificate is broken.
 *
 * @example const [leaf, ...chain] = parseCertificates(readFileSync('transport.pem', 'utf8'), 'transport.pem')
 */
export function parseCertificates(input: string | Uint8Array, source = 'the certificate'): x509.X509Certificate[] {
  if (typeof input !== 'string') {
    const text = Buffer.from(input).toString('latin1')
    if (isPem(text)) return parseCertificates(text, source)
    return [parseCertificateDer(input, source, 0)]
  }
  if (input.trim() === '') {
    throw new AppError('CERTIFICATE_INVALID', {
      what: `Reading ${source} failed`,
      cause: 'it is empty',
      fix: 'paste the PEM certificate (-----BEGIN CERTIFICATE----- ...) or choose the certificate file',
    })
  }
  const blocks = splitPem(input)
  if (blocks.length === 0) {
    throw new AppError('CERTIFICATE_INVALID', {
      what: `Reading ${source} failed`,
      cause: 'it is not PEM: no "-----BEGIN CERTIFICATE-----" line was found',
      fix: 'paste the whole PEM text, BEGIN and END lines included; for a binary .cer/.der file, choose the file instead of pasting it',
    })
  }
  const certBlocks = blocks.filter((b) => CERTIFICATE_LABELS.has(b.label))
  if (certBlocks.length === 0) {
    const held = [...new Set(blocks.map((b) => describeLabel(b.label)))].join(' and ')
    throw new AppError('CERTIFICATE_INVALID', {
      what: `Reading ${source} failed`,
      cause: `it holds ${held}, not a certificate`,
      fix: held.includes('signing request')
        ? 'a CSR is what you send to get a certificate: upload it to the directory or your CA and import the certificate it returns'
        : 'choose the certificate file (-----BEGIN CERTIFICATE-----); keys go in the key field',
    })
  }
  return certBlocks.map((b, i) => parseCertificateDer(b.der, source, i))
}

const SUPPORTED_KEY_TYPES = new Set(['rsa', 'rsa-pss', 'ec'])

/**
 * Throws KEY_UNSUPPORTED unless the key is RSA of 2048 bits or more, or EC: the keys Open Banking
 * transport and signing certificates use.
 */
export function assertSupportedKey(key: KeyObject, source = 'the private key'): KeyObject {
  const type = key.asymmetricKeyType ?? 'unknown'
  if (!SUPPORTED_KEY_TYPES.has(type)) {
    throw new AppError('KEY_UNSUPPORTED', {
      what: `Reading ${source} failed`,
      cause: `it is a ${type.toUpperCase()} key; Open Banking transport and signing keys are RSA (PS256 signing needs RSA) or EC`,
      fix: 'generate an RSA key of 2048 bits or more (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048) and have the certificate issued for it',
      details: { keyType: type },
    })
  }
  const bits = key.asymmetricKeyDetails?.modulusLength
  if (type.startsWith('rsa') && bits !== undefined && bits < 2048) {
    throw new AppError('KEY_UNSUPPORTED', {
      what: `Reading ${source} failed`,
      cause: `the RSA key has ${bits} bits; Open Banking and current TLS libraries require at least 2048`,
      fix: 'generate a new RSA key of 2048 bits or more and have a new certificate issued for it',
      details: { bits },
    })
  }
  return key
}

function keyFromBlock(block: PemBlock, passphrase: string | undefined, source: string): KeyObject {
  const encrypted = block.label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(block.pem)
  if (encrypted && !passphrase) {
    throw new AppError('PASSPHRASE_REQUIRED', {
      what: `Reading ${source} failed`,
      cause: 'the private key is encrypted and no passphrase was given',
      fix: 'enter the passphrase the key was encrypted with',
    })
  }
  try {
    return createPrivateKey({ key: block.pem, format: 'pem', ...(encrypted ? { passphrase } : {}) })
  } catch (err) {
    const code = (err as { code?: string }).code
    if (
      encrypted &&
      (code === 'ERR_OSSL_BAD_DECRYPT' || code === 'ERR_OSSL_UNSUPPORTED' || code === 'ERR_OSSL_EVP_BAD_DECRYPT')
    ) {
      throw new AppError('PASSPHRASE_WRONG', {
        what: `Reading ${source} failed`,
        cause: 'the passphrase does not decrypt the private key',
        fix: 'enter the passphrase the key was encrypted with (it is case-sensitive); if it is lost, generate a new key and certificate',
        source: err,
      })
    }
    throw new AppError('KEY_INVALID', {
      what: `Reading ${source} failed`,
      cause: `the ${block.label} block is not a valid key (${(err as Error).message}); the text may be cut or altered`,
      fix: 'paste the whole key file again, BEGIN and END lines included',
      source: err,
    })
  }
}

/**
 * Reads a private key: PEM in PKCS#8, encrypted PKCS#8 (with `passphrase`), PKCS#1 RSA (also legacy
 * OpenSSL-encrypted) or SEC1 EC, or DER PKCS#8. Only RSA (2048 bits or more) and EC keys are accepted.
 * Throws PASSPHRASE_REQUIRED, PASSPHRASE_WRONG, KEY_INVALID or KEY_UNSUPPORTED, naming the cause.
 *
 * @example const key = parsePrivateKey(readFileSync('transport.key', 'utf8'), process.env.KEY_PASSPHRASE, 'transport.key')
 */
export function parsePrivateKey(
  input: string | Uint8Array,
  passphrase?: string,
  source = 'the private key',
): KeyObject {
  if (typeof input !== 'string') {
    const text = Buffer.from(input).toString('latin1')
    if (isPem(text)) return parsePrivateKey(text, passphrase, source)
    for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
      try {
        return assertSupportedKey(
          createPrivateKey({ key: Buffer.from(input), format: 'der', type, ...(passphrase ? { passphrase } : {}) }),
          source,
        )
      } catch (err) {
        if (err instanceof AppError) throw err
      }
    }
    throw new AppError('KEY_INVALID', {
      what: `Reading ${source} failed`,
      cause: 'it is neither PEM nor a DER private key',
      fix: 'choose the key file in PEM (a block labelled PRIVATE KEY) or DER PKCS#8 form',
    })
  }
  if (input.trim() === '') {
    throw new AppError('KEY_INVALID', {
      what: `Reading ${source} failed`,
      cause: 'it is empty',
      fix: 'paste the PEM private key (the whole block labelled PRIVATE KEY) or choose the key file',
    })
  }
  const blocks = splitPem(input)
  const keyBlocks = blocks.filter((b) => PRIVATE_KEY_LABELS.has(b.label))
  if (keyBlocks.length === 0) {
    const held = blocks.length
      ? `it holds ${[...new Set(blocks.map((b) => describeLabel(b.label)))].join(' and ')}, not a private key`
      : 'it is not PEM: no "-----BEGIN ... PRIVATE KEY-----" line was found'
    throw new AppError('KEY_INVALID', {
      what: `Reading ${source} failed`,
      cause: held,
      fix: 'choose the private key file (a PEM block labelled PRIVATE KEY, RSA PRIVATE KEY, EC PRIVATE KEY or ENCRYPTED PRIVATE KEY); certificates go in the certificate field',
    })
  }
  if (keyBlocks.length > 1) {
    throw new AppError('KEY_INVALID', {
      what: `Reading ${source} failed`,
      cause: `it holds ${keyBlocks.length} private keys`,
      fix: 'give one key: the one the certificate was issued for',
    })
  }
  return assertSupportedKey(keyFromBlock(keyBlocks[0]!, passphrase, source), source)
}
