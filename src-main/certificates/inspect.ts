import { createHash, X509Certificate as NodeX509, type KeyObject } from 'node:crypto'
import type { CertificateInspectionDto, PublicKeyDto } from '../contract/certificates.ts'
import { AppError } from '../core/app-error.ts'
import { dnAttributes, dnValue, rfc4514 } from './subject-dn.ts'
import { x509 } from '../plumbing/x509.ts'

const DAY_MS = 86_400_000
/** Certificates expiring sooner than this get a warning. */
export const EXPIRY_WARNING_DAYS = 30

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' }

const KEY_USAGE_NAMES: Array<[x509.KeyUsageFlags, string]> = [
  [x509.KeyUsageFlags.digitalSignature, 'digitalSignature'],
  [x509.KeyUsageFlags.nonRepudiation, 'nonRepudiation'],
  [x509.KeyUsageFlags.keyEncipherment, 'keyEncipherment'],
  [x509.KeyUsageFlags.dataEncipherment, 'dataEncipherment'],
  [x509.KeyUsageFlags.keyAgreement, 'keyAgreement'],
  [x509.KeyUsageFlags.keyCertSign, 'keyCertSign'],
  [x509.KeyUsageFlags.cRLSign, 'cRLSign'],
  [x509.KeyUsageFlags.encipherOnly, 'encipherOnly'],
  [x509.KeyUsageFlags.decipherOnly, 'decipherOnly'],
]

const EKU_NAMES: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'serverAuth',
  '1.3.6.1.5.5.7.3.2': 'clientAuth',
  '1.3.6.1.5.5.7.3.3': 'codeSigning',
  '1.3.6.1.5.5.7.3.4': 'emailProtection',
  '1.3.6.1.5.5.7.3.8': 'timeStamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
}

/** SHA-256 of the DER: hex pairs with colons (as browsers show it) and base64url (`x5t#S256`). */
export function certificateThumbprints(der: Uint8Array): { sha256Hex: string; x5tS256: string } {
  const digest = createHash('sha256').update(der).digest()
  return {
    sha256Hex: digest
      .toString('hex')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1:'),
    x5tS256: digest.toString('base64url'),
  }
}

/** Key type, size and curve of a public (or private) key. */
export function describeKey(key: KeyObject): PublicKeyDto {
  const type = key.asymmetricKeyType
  const details = key.asymmetricKeyDetails ?? {}
  if (type === 'rsa' || type === 'rsa-pss')
    return { type: 'RSA', ...(details.modulusLength ? { size: details.modulusLength } : {}) }
  if (type === 'ec') {
    const curve = CURVES[details.namedCurve ?? ''] ?? details.namedCurve
    const size = curve ? Number(/\d+$/.exec(curve)?.[0]) || undefined : undefined
    return { type: 'EC', ...(curve ? { curve } : {}), ...(size ? { size } : {}) }
  }
  if (type === 'ed25519') return { type: 'Ed25519' }
  if (type === 'ed448') return { type: 'Ed448' }
  return { type: 'unknown' }
}

/**
 * True when the certificate is signed by its own key and names itself as issuer. (Node's
 * `checkIssued` is not used: OpenSSL also wants keyCertSign, which self-signed end-entity
 * certificates, such as the ones the bank's sandbox accepts, lack.)
 */
export function isSelfSigned(cert: x509.X509Certificate): boolean {
  const node = toNodeCertificate(cert)
  return (
    node.subject === node.issuer &&
    rfc4514(cert.subjectName) === rfc4514(cert.issuerName) &&
    node.verify(node.publicKey)
  )
}

/** A Node X509Certificate over the same DER (for key details, issuer checks and signature checks). */
export function toNodeCertificate(cert: x509.X509Certificate): NodeX509 {
  return new NodeX509(Buffer.from(cert.rawData))
}

/**
 * Everything the console shows about a certificate: names (and the exact `tls_client_auth` subject DN),
 * validity with days to expiry and a warning under 30 days, SANs, key, thumbprints, the Open Banking
 * organisation id (OU) and software id (CN), usages.
 *
 * @example const dto = inspectCertificate(parseCertificates(pem)[0], clock.now())
 */
export function inspectCertificate(cert: x509.X509Certificate, now: Date = new Date()): CertificateInspectionDto {
  const node = toNodeCertificate(cert)
  const notAfter = cert.notAfter
  const daysToExpiry = Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS)
  const expired = now.getTime() > notAfter.getTime()
  const notYetValid = now.getTime() < cert.notBefore.getTime()
  const basic = cert.getExtension(x509.BasicConstraintsExtension)
  const keyUsage = cert.getExtension(x509.KeyUsagesExtension)
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension)
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension)
  const subjectDn = rfc4514(cert.subjectName)
  const issuerDn = rfc4514(cert.issuerName)
  const selfSigned = subjectDn === issuerDn && node.verify(node.publicKey)
  const orgId = dnValue(cert.subjectName, 'OU')
  const softwareId = dnValue(cert.subjectName, 'CN')
  let expiryWarning: string | undefined
  if (expired)
    expiryWarning = `expired on ${notAfter.toISOString()}: servers refuse it; get a new certificate from the directory or your CA`
  else if (daysToExpiry < EXPIRY_WARNING_DAYS)
    expiryWarning = `expires in ${daysToExpiry} day${daysToExpiry === 1 ? '' : 's'} (${notAfter.toISOString()}): renew it before then`
  return {
    subjectDn,
    issuerDn,
    subject: dnAttributes(cert.subjectName),
    issuer: dnAttributes(cert.issuerName),
    serialNumber: cert.serialNumber.toLowerCase(),
    notBefore: cert.notBefore.toISOString(),
    notAfter: notAfter.toISOString(),
    daysToExpiry,
    expired,
    notYetValid,
    ...(expiryWarning ? { expiryWarning } : {}),
    subjectAltNames: san ? san.names.items.map((n) => ({ type: n.type, value: n.value })) : [],
    publicKey: describeKey(node.publicKey),
    signatureAlgorithm: describeSignatureAlgorithm(
      cert.signatureAlgorithm as unknown as { name: string; hash?: unknown },
    ),
    ...certificateThumbprints(new Uint8Array(cert.rawData)),
    tlsClientAuthSubjectDn: subjectDn,
    ...(orgId ? { orgId } : {}),
    ...(softwareId ? { softwareId } : {}),
    isCa: basic?.ca ?? false,
    selfSigned,
    keyUsages: keyUsage
      ? KEY_USAGE_NAMES.filter(([flag]) => (keyUsage.usages & flag) !== 0).map(([, name]) => name)
      : [],
    extendedKeyUsages: eku ? eku.usages.map((u) => EKU_NAMES[String(u)] ?? String(u)) : [],
  }
}

function describeSignatureAlgorithm(alg: { name: string; hash?: unknown }): string {
  const hash = typeof alg.hash === 'string' ? alg.hash : (alg.hash as { name?: string } | undefined)?.name
  return hash ? `${alg.name} with ${hash}` : alg.name
}

/**
 * Throws CERTIFICATE_EXPIRED when the certificate is expired or not yet valid at `now` (with the dates
 * and a fix); returns its inspection otherwise (which may carry an expiry warning).
 *
 * @example assertCurrentlyValid(transportCert, clock.now(), 'the transport certificate')
 */
export function assertCurrentlyValid(
  cert: x509.X509Certificate,
  now: Date = new Date(),
  label = 'the certificate',
): CertificateInspectionDto {
  const dto = inspectCertificate(cert, now)
  if (!dto.expired && !dto.notYetValid) return dto
  throw new AppError('CERTIFICATE_EXPIRED', {
    what: `Using ${label} (${dto.subjectDn}) failed`,
    cause: dto.expired ? `it expired on ${dto.notAfter}` : `it is not valid before ${dto.notBefore}`,
    fix: dto.expired
      ? 'get a new certificate from the directory (or your CA) and import it'
      : "check this computer's date and time",
    details: { notBefore: dto.notBefore, notAfter: dto.notAfter, x5tS256: dto.x5tS256 },
  })
}
