import { createPrivateKey, type KeyObject } from 'node:crypto'
import forge from 'node-forge'
import { AppError } from '../core/app-error.ts'
import { toPem } from './pem.ts'
import { x509 } from '../plumbing/x509.ts'

/** What a PKCS#12 (.p12 / .pfx) file held: certificates (leaf first when it can tell) and one private key. */
export interface Pkcs12Contents {
  certificates: x509.X509Certificate[]
  privateKey?: KeyObject
  /** The `friendlyName` attribute of the key or certificate bag, when the file has one. */
  friendlyName?: string
}

function fail(
  source: string,
  code: 'PASSPHRASE_REQUIRED' | 'PASSPHRASE_WRONG' | 'CERTIFICATE_INVALID' | 'KEY_INVALID',
  cause: string,
  fix: string,
  err?: unknown,
): never {
  throw new AppError(code, {
    what: `Opening ${source} failed`,
    cause,
    fix,
    ...(err !== undefined ? { source: err } : {}),
  })
}

/** PFX ::= SEQUENCE { version INTEGER (3), authSafe ContentInfo, macData OPTIONAL } (RFC 7292). */
function isPfx(asn1: forge.asn1.Asn1): boolean {
  const items = Array.isArray(asn1.value) ? asn1.value : []
  const version = items[0]
  return (
    asn1.type === forge.asn1.Type.SEQUENCE &&
    version?.type === forge.asn1.Type.INTEGER &&
    typeof version.value === 'string' &&
    version.value === '\x03' &&
    items[1]?.type === forge.asn1.Type.SEQUENCE
  )
}

function looksLikePasswordFailure(message: string): boolean {
  return /Invalid password|wrong password|MAC could not be verified|Too few bytes|Unparsed DER bytes|Invalid PKCS#7|padding|Cannot read/i.test(
    message,
  )
}

/** Reads the DER bytes as a PFX and opens it with the passphrase (the empty one when none is given). */
function openPfx(der: Uint8Array, passphrase: string | undefined, source: string): forge.pkcs12.Pkcs12Pfx {
  const head = Buffer.from(der.subarray(0, 64)).toString('latin1')
  if (head.includes('-----BEGIN')) {
    fail(
      source,
      'CERTIFICATE_INVALID',
      'it is a PEM text, not a binary PKCS#12 file',
      'import it as PEM (certificate and key fields) instead',
    )
  }
  let asn1: forge.asn1.Asn1
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary')))
  } catch (err) {
    fail(
      source,
      'CERTIFICATE_INVALID',
      'it is not DER-encoded ASN.1 (a .p12/.pfx file is binary)',
      'choose the .p12/.pfx file exported with its private key',
      err,
    )
  }
  if (!isPfx(asn1)) {
    fail(
      source,
      'CERTIFICATE_INVALID',
      'it is DER, but not a PKCS#12 structure (it may be a single certificate or key)',
      'choose the .p12/.pfx file, or import a DER certificate as a certificate',
    )
  }
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase ?? '')
  } catch (err) {
    const message = (err as Error).message ?? String(err)
    if (looksLikePasswordFailure(message)) {
      if (!passphrase)
        fail(
          source,
          'PASSPHRASE_REQUIRED',
          'the file is protected by a passphrase and none was given',
          'enter the passphrase the file was exported with',
          err,
        )
      fail(
        source,
        'PASSPHRASE_WRONG',
        'the passphrase does not open the file (its integrity check failed with it)',
        'enter the passphrase the file was exported with (it is case-sensitive)',
        err,
      )
    }
    fail(
      source,
      'CERTIFICATE_INVALID',
      `it is not a PKCS#12 file this console can read (${message})`,
      'export the certificate and key again as PKCS#12 (openssl pkcs12 -export -in cert.pem -inkey key.pem -out client.p12), or import them as PEM',
      err,
    )
  }
}

/** The certificates of the file's certificate bags, with the first friendly name found. */
function readCertificates(
  p12: forge.pkcs12.Pkcs12Pfx,
  source: string,
): { certificates: x509.X509Certificate[]; friendlyName?: string } {
  const certificates: x509.X509Certificate[] = []
  let friendlyName: string | undefined
  const certBags = p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []
  for (const bag of certBags) {
    const certAsn1 = bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1
    if (!certAsn1) continue
    const bytes = Buffer.from(forge.asn1.toDer(certAsn1).getBytes(), 'binary')
    try {
      certificates.push(new x509.X509Certificate(bytes))
    } catch (err) {
      fail(
        source,
        'CERTIFICATE_INVALID',
        `a certificate inside it is not valid X.509 (${(err as Error).message})`,
        'export the file again from where it was created',
        err,
      )
    }
    friendlyName ??= bag.attributes?.friendlyName?.[0]
  }
  return { certificates, ...(friendlyName ? { friendlyName } : {}) }
}

/** The file's one private key (shrouded or plain key bag) with its friendly name, when it holds one. */
function readPrivateKey(
  p12: forge.pkcs12.Pkcs12Pfx,
  source: string,
): { privateKey?: KeyObject; friendlyName?: string } {
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ]
  if (keyBags.length > 1)
    fail(
      source,
      'KEY_INVALID',
      `it holds ${keyBags.length} private keys`,
      'export a file with one identity (one key and its certificate chain)',
    )
  const keyBag = keyBags[0]
  if (!keyBag) return {}
  const info = keyBag.key ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key)) : keyBag.asn1
  if (!info)
    fail(source, 'KEY_INVALID', 'its private key could not be read', 'export the file again with its private key')
  const keyDer = Buffer.from(forge.asn1.toDer(info).getBytes(), 'binary')
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: toPem(keyDer, 'PRIVATE KEY'), format: 'pem' })
  } catch (err) {
    fail(
      source,
      'KEY_INVALID',
      `its private key is not a valid PKCS#8 key (${(err as Error).message})`,
      'export the file again with its private key',
      err,
    )
  }
  const friendlyName = keyBag.attributes?.friendlyName?.[0]
  return { privateKey, ...(friendlyName !== undefined ? { friendlyName } : {}) }
}

/**
 * Opens a PKCS#12 file (.p12 / .pfx) with its passphrase, using node-forge (it reads the legacy
 * 3DES/RC2 files Windows and older OpenSSL write as well as OpenSSL 3's AES/PBKDF2 ones). Keys come
 * out as Node KeyObjects, certificates as x509 objects, with their bytes unchanged.
 *
 * Throws PASSPHRASE_REQUIRED (none given and the empty one does not open it), PASSPHRASE_WRONG,
 * CERTIFICATE_INVALID (not a PKCS#12 file) or KEY_INVALID.
 *
 * @example const { certificates, privateKey } = importPkcs12(readFileSync('client.p12'), 'secret', 'client.p12')
 */
export function importPkcs12(
  der: Uint8Array,
  passphrase: string | undefined,
  source = 'the PKCS#12 file',
): Pkcs12Contents {
  const p12 = openPfx(der, passphrase, source)
  const { certificates, friendlyName: certificateName } = readCertificates(p12, source)
  const { privateKey, friendlyName: keyName } = readPrivateKey(p12, source)
  const friendlyName = keyName ?? certificateName
  if (certificates.length === 0)
    fail(
      source,
      'CERTIFICATE_INVALID',
      'it holds no certificate',
      'export the file again with the certificate (and its chain) included',
    )
  return { certificates, ...(privateKey ? { privateKey } : {}), ...(friendlyName ? { friendlyName } : {}) }
}
