import { X509Certificate as NodeX509, createPrivateKey } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { join } from 'node:path'
import type { DataDirLayout } from '../data-dir.ts'
import { FileBankDocuments, type BankDocuments } from '../store/bank-documents.ts'
import {
  certToPem,
  createRootCa,
  issueCertificate,
  keysFromPem,
  privateKeyToPem,
  x509,
  type IssuedCertificate,
} from './certificate-factory.ts'
import type { EcosystemPki } from './types.ts'
import { writeFileAtomic } from '../../plumbing/atomic-file.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** Validity of each certificate the sandbox's PKI makes, in days. */
export const PKI_VALIDITY_DAYS = { root: 20 * 365, issuing: 10 * 365, server: 397, transport: 2 * 365 } as const
/** The servers' certificate is re-issued at start when it expires within this many days. */
export const SERVER_RENEW_BEFORE_DAYS = 30

const ORG = 'OB Console Local Sandbox'
export const ROOT_CA_SUBJECT: x509.JsonName = [{ C: ['GB'] }, { O: [ORG] }, { CN: [`${ORG} Root CA`] }]
export const ISSUING_CA_SUBJECT: x509.JsonName = [{ C: ['GB'] }, { O: [ORG] }, { CN: [`${ORG} Issuing CA`] }]
const SERVER_SUBJECT: x509.JsonName = [{ C: ['GB'] }, { O: [ORG] }, { CN: ['localhost'] }]
const SERVER_SANS: x509.JsonGeneralNames = [
  { type: 'ip', value: '127.0.0.1' },
  { type: 'ip', value: '::1' },
  { type: 'dns', value: 'localhost' },
]

/** File names inside `layout.pki` (bank documents `pki/<file>`). Keys are written mode 0600. */
export const PKI_FILES = {
  rootCert: 'root-ca.pem',
  rootKey: 'root-ca.key',
  issuingCert: 'issuing-ca.pem',
  issuingKey: 'issuing-ca.key',
  caBundle: 'ca-bundle.pem',
  serverCert: 'server.pem',
  serverKey: 'server.key',
} as const

export interface PkiOptions {
  /** Wall time used for validity checks and new certificates (tests move it); default: now. */
  now?: () => Date
  /** Validity of a newly issued server certificate; default {@link PKI_VALIDITY_DAYS}.server. */
  serverValidityDays?: number
  /** Where the PKI lives: the store's bank documents; default the data directory's files. */
  documents?: BankDocuments
  /**
   * Names the servers' certificate must cover besides 127.0.0.1, ::1 and localhost (the public host: a DNS
   * name or an IP address); a stored certificate that lacks one is re-issued.
   */
  serverNames?: string[]
}

const ID_PATTERN = /^[0-9A-Za-z]{1,35}$/

/** The name of a PKI file as a bank document (its path in a data directory). */
const doc = (file: string) => `pki/${file}`

function writeAtomic(path: string, text: string, mode: number): void {
  writeFileAtomic(path, text, { mode, backup: false })
}

function fail(docs: BankDocuments, problem: string): never {
  const { where, remove } = docs.locate('pki/')
  throw new Error(
    `${problem}. The sandbox's PKI in ${where} cannot be used; ${remove} to generate a new one (every starter kit issued from the old one must then be issued again).`,
  )
}

async function loadCa(
  docs: BankDocuments,
  certFile: string,
  keyFile: string,
  now: Date,
): Promise<IssuedCertificate | undefined> {
  const [certPem, keyPem] = await Promise.all([docs.read(doc(certFile)), docs.read(doc(keyFile))])
  if (!certPem && !keyPem) return undefined
  if (!certPem || !keyPem)
    fail(docs, `${certPem ? keyFile : certFile} is missing while ${certPem ? certFile : keyFile} exists`)
  let node: NodeX509
  let matches: boolean
  try {
    node = new NodeX509(certPem)
    matches = node.checkPrivateKey(createPrivateKey(keyPem))
  } catch (err) {
    fail(docs, `${certFile} or ${keyFile} is not a readable PEM (${(err as Error).message})`)
  }
  if (!matches) fail(docs, `${keyFile} is not the key of ${certFile}`)
  if (new Date(node.validTo).getTime() <= now.getTime())
    fail(docs, `${certFile} expired on ${new Date(node.validTo).toISOString()}`)
  const cert = new x509.X509Certificate(certPem)
  return { cert, keys: await keysFromPem(keyPem, cert) }
}

async function saveIssued(
  docs: BankDocuments,
  certFile: string,
  keyFile: string,
  issued: IssuedCertificate,
): Promise<void> {
  await docs.write(doc(keyFile), await privateKeyToPem(issued.keys.privateKey), { secret: true })
  await docs.write(doc(certFile), certToPem(issued.cert))
}

/** The servers' certificate's subject alternative names: the loopback names and `extra` (IP or DNS). */
function serverSans(extra: readonly string[]): x509.JsonGeneralNames {
  const added = extra
    .filter((name) => !SERVER_SANS.some((san) => san.value === name))
    .map((name) => ({ type: isIP(name) ? ('ip' as const) : ('dns' as const), value: name }))
  return [...SERVER_SANS, ...added]
}

/**
 * True when the stored server certificate is usable: issued by `issuing`, matches its key, not near
 * expiry, and covers every name of `names`.
 */
function serverCertIsCurrent(
  certPem: string | undefined,
  keyPem: string | undefined,
  issuingPem: string,
  now: Date,
  names: readonly string[],
): boolean {
  if (!certPem || !keyPem) return false
  try {
    const cert = new NodeX509(certPem)
    const issuing = new NodeX509(issuingPem)
    if (!cert.checkIssued(issuing) || !cert.verify(issuing.publicKey)) return false
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return false
    if (!names.every((name) => (isIP(name) ? cert.checkIP(name) : cert.checkHost(name)) !== undefined)) return false
    return new Date(cert.validTo).getTime() - now.getTime() > SERVER_RENEW_BEFORE_DAYS * DAY_MS
  } catch {
    return false
  }
}

/** The root and issuing CAs from the documents, each created when missing; a foreign or orphaned one fails. */
async function loadOrCreateCas(
  docs: BankDocuments,
  now: () => Date,
): Promise<{ root: IssuedCertificate; issuing: IssuedCertificate }> {
  let root = await loadCa(docs, PKI_FILES.rootCert, PKI_FILES.rootKey, now())
  let issuing = root ? await loadCa(docs, PKI_FILES.issuingCert, PKI_FILES.issuingKey, now()) : undefined
  if (!root) {
    if ((await docs.read(doc(PKI_FILES.issuingCert))) !== undefined)
      fail(docs, `${PKI_FILES.issuingCert} exists but its root (${PKI_FILES.rootCert}) is missing`)
    root = await createRootCa({ name: ROOT_CA_SUBJECT, validDays: PKI_VALIDITY_DAYS.root, pathLength: 1, now: now() })
    await saveIssued(docs, PKI_FILES.rootCert, PKI_FILES.rootKey, root)
  }
  const rootNode = new NodeX509(certToPem(root.cert))
  if (issuing) {
    const issuingNode = new NodeX509(certToPem(issuing.cert))
    if (!issuingNode.checkIssued(rootNode) || !issuingNode.verify(rootNode.publicKey))
      fail(docs, `${PKI_FILES.issuingCert} is not signed by ${PKI_FILES.rootCert}`)
  } else {
    issuing = await issueCertificate(root, {
      subject: ISSUING_CA_SUBJECT,
      validDays: PKI_VALIDITY_DAYS.issuing,
      now: now(),
      ca: { pathLength: 0 },
    })
    await saveIssued(docs, PKI_FILES.issuingCert, PKI_FILES.issuingKey, issuing)
  }
  return { root, issuing }
}

/** The servers' TLS certificate and key from the documents, re-issued when not current (serverCertIsCurrent). */
async function currentServerTls(
  docs: BankDocuments,
  issuing: IssuedCertificate,
  options: PkiOptions,
  now: () => Date,
): Promise<{ certPem: string; keyPem: string }> {
  let serverCertPem = await docs.read(doc(PKI_FILES.serverCert))
  let serverKeyPem = await docs.read(doc(PKI_FILES.serverKey))
  const serverNames = options.serverNames ?? []
  if (!serverCertIsCurrent(serverCertPem, serverKeyPem, certToPem(issuing.cert), now(), serverNames)) {
    const server = await issueCertificate(issuing, {
      subject: SERVER_SUBJECT,
      validDays: options.serverValidityDays ?? PKI_VALIDITY_DAYS.server,
      now: now(),
      extendedKeyUsages: [x509.ExtendedKeyUsage.serverAuth],
      subjectAltNames: serverSans(serverNames),
    })
    await saveIssued(docs, PKI_FILES.serverCert, PKI_FILES.serverKey, server)
    serverCertPem = certToPem(server.cert)
    serverKeyPem = await privateKeyToPem(server.keys.privateKey)
  }
  return { certPem: serverCertPem!, keyPem: serverKeyPem! }
}

/** A TPP's transport certificate (C=GB, O=orgName, OU=orgId, CN=softwareId), issued by the issuing CA. */
async function issueTransport(
  issuing: IssuedCertificate,
  now: () => Date,
  input: Parameters<EcosystemPki['issueTransportCertificate']>[0],
): Promise<{ certPem: string; keyPem: string }> {
  const { orgId, orgName, softwareId, validDays = PKI_VALIDITY_DAYS.transport } = input
  if (!ID_PATTERN.test(orgId))
    throw new RangeError(`orgId must be 1 to 35 letters and digits (it becomes the certificate's OU), got "${orgId}"`)
  if (!ID_PATTERN.test(softwareId) || softwareId.length > 22)
    throw new RangeError(
      `softwareId must be 1 to 22 letters and digits (it becomes the certificate's CN), got "${softwareId}"`,
    )
  if (typeof orgName !== 'string' || orgName.trim() === '' || orgName.length > 64)
    throw new RangeError(
      `orgName must be 1 to 64 characters (it becomes the certificate's O), got ${JSON.stringify(orgName)}`,
    )
  if (!Number.isInteger(validDays) || validDays < 1 || validDays > 3650)
    throw new RangeError(`validDays must be a whole number of days from 1 to 3650, got ${validDays}`)
  const transport = await issueCertificate(issuing, {
    subject: [{ C: ['GB'] }, { O: [orgName] }, { OU: [orgId] }, { CN: [softwareId] }],
    validDays,
    now: now(),
    extendedKeyUsages: [x509.ExtendedKeyUsage.clientAuth],
  })
  return { certPem: certToPem(transport.cert), keyPem: await privateKeyToPem(transport.keys.privateKey) }
}

/**
 * Loads the local sandbox's PKI from the bank documents (`pki/…`: the data directory's `pki/` folder, or
 * the store's table), creating what is missing under the bank-wide lock: a self-signed root CA, an
 * issuing CA signed by the root (together "the root and issuing certificates of the open banking
 * ecosystem" a TPP must hold), the CA bundle (root then issuing) and the servers' TLS certificate. The
 * CAs are reused on every later start (and by every instance on a shared store), so starter kits stay
 * valid; the server certificate is re-issued when missing, foreign or within {@link SERVER_RENEW_BEFORE_DAYS}
 * days of expiry. `caBundlePath` is always a file in the data directory's `pki/` folder, written from
 * the stored bundle when the documents live in a database: no private key is written there then.
 *
 * @example
 *   const pki = await loadOrCreatePki(dataDirLayout('/tmp/sandbox'))
 *   https.createServer({ key: pki.serverTls.keyPem, cert: pki.serverTls.certPem, ca: pki.caBundlePem, requestCert: true })
 */
export async function loadOrCreatePki(layout: DataDirLayout, options: PkiOptions = {}): Promise<EcosystemPki> {
  const now = options.now ?? (() => new Date())
  const docs = options.documents ?? new FileBankDocuments(layout.root)
  const caBundlePath = join(layout.pki, PKI_FILES.caBundle)

  const { root, issuing, server, bundle } = await docs.withLock(async () => {
    const { root, issuing } = await loadOrCreateCas(docs, now)
    const bundle = certToPem(root.cert) + certToPem(issuing.cert)
    if ((await docs.read(doc(PKI_FILES.caBundle))) !== bundle) await docs.write(doc(PKI_FILES.caBundle), bundle)
    return { root, issuing, bundle, server: await currentServerTls(docs, issuing, options, now) }
  })
  // A database store: the data directory gets the one file a user downloads, the CA bundle.
  if (!docs.inDataDir && !(existsSync(caBundlePath) && readFileSync(caBundlePath, 'utf8') === bundle)) {
    mkdirSync(layout.pki, { recursive: true, mode: 0o700 })
    writeAtomic(caBundlePath, bundle, 0o644)
  }

  const rootCaPem = certToPem(root.cert)
  const issuingCaPem = certToPem(issuing.cert)
  return {
    rootCaPem,
    issuingCaPem,
    caBundlePem: rootCaPem + issuingCaPem,
    caBundlePath,
    serverTls: server,
    issueTransportCertificate: (input) => issueTransport(issuing, now, input),
  }
}
