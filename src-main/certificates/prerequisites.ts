import type { KeyObject } from 'node:crypto'
import type { SoftwareStatementDto } from '../contract/certificates.ts'
import type { CheckResult } from '../contract/checks.ts'
import { isAppError } from '../core/app-error.ts'
import { verifyChain } from './chain.ts'
import { inspectCertificate, isSelfSigned, toNodeCertificate } from './inspect.ts'
import { checkKeyMatch } from './key-match.ts'
import { parseSoftwareStatement } from './software-statement.ts'
import { rfc4514 } from './subject-dn.ts'
import type { x509 } from '../plumbing/x509.ts'

/** What the TPP holds before registering; every part is optional, each missing part fails its checks. */
export interface PrerequisiteInput {
  /** The transport certificate (leaf) for mutual TLS. */
  transportCertificate?: x509.X509Certificate
  transportKey?: KeyObject
  /** The software statement assertion (SSA) from the directory. */
  softwareStatement?: string
  /** The ecosystem's root and issuing CA certificates the TPP holds. */
  caCertificates?: x509.X509Certificate[]
  /**
   * True when the identity is used only with sandboxes (the bank's sandbox, the local sandbox): they accept
   * a self-signed transport certificate with the subject and key of the one the directory issued (spec
   * section 5: "The sandbox accepts self-signed certificates"). Production requires the directory's CA.
   */
  selfSignedTransportAllowed?: boolean
  now?: Date
}

/** The one sentence that tells a sandbox's self-signed transport certificate from production's. */
export const SELF_SIGNED_TRANSPORT_HINT =
  "The bank's sandbox accepts a self-signed transport certificate with the subject and key of the one the directory issued (spec section 5); production accepts only a certificate issued by the directory's CA, so use that one for a production environment."

const SPEC = "bank spec section 1, 'TPP prerequisites before registering'"

function missing(name: string, expected: string, hint: string): CheckResult {
  return { name, pass: false, expected, actual: 'not provided', hint }
}

type CertificateFacts = ReturnType<typeof inspectCertificate>

/** 1. Registered in the directory: an organisation id from the SSA or the transport certificate. */
function directoryCheck(statement: SoftwareStatementDto | undefined, cert: CertificateFacts | undefined): CheckResult {
  const orgId = statement?.orgId ?? cert?.orgId
  return {
    name: '1. Registered in the open banking directory',
    pass: Boolean(orgId),
    expected: 'an organisation id (SSA org_id, or OU of the transport certificate)',
    actual: orgId
      ? `organisation ${orgId}${statement?.orgName ? ` (${statement.orgName})` : ''}`
      : 'no organisation id found',
    ...(orgId
      ? {}
      : { hint: `register the organisation in the directory (the sandbox directory for the sandbox) first; ${SPEC}` }),
  }
}

/** 2. A software statement, parseable, with a software id and roles. */
function statementCheck(
  input: PrerequisiteInput,
  statement: SoftwareStatementDto | undefined,
  ssaError: string | undefined,
): CheckResult {
  if (!input.softwareStatement)
    return missing(
      '2. Software statement present',
      'a software statement assertion (JWT) from the directory',
      'create a software statement in the directory and paste its SSA',
    )
  if (!statement)
    return {
      name: '2. Software statement present',
      pass: false,
      expected: 'a parseable SSA (JWT)',
      actual: ssaError ?? 'unreadable',
      hint: 'paste the SSA exactly as the directory issued it',
    }
  const hasRoles = statement.roles.length > 0
  return {
    name: '2. Software statement present',
    pass: Boolean(statement.softwareId) && hasRoles,
    expected: 'software_id and at least one role (AISP, PISP)',
    actual: `software_id ${statement.softwareId ?? 'missing'}, roles ${hasRoles ? statement.roles.join(' ') : 'none'}`,
    ...(statement.softwareId && hasRoles
      ? {}
      : { hint: 'the SSA lacks software_id or software_roles: issue a new one in the directory' }),
  }
}

/** 3. The transport certificate chains to the ecosystem CAs (self-signed is a warning where sandboxes allow it). */
function chainCheck(input: PrerequisiteInput, leaf: x509.X509Certificate, subjectDn: string, now: Date): CheckResult {
  if (input.selfSignedTransportAllowed && isSelfSigned(leaf))
    return {
      name: '3. Transport certificate chains to the ecosystem CAs',
      pass: true,
      severity: 'warning',
      expected: 'leaf -> issuing CA -> root CA, or self-signed in a sandbox',
      actual: `self-signed (${subjectDn})`,
      hint: SELF_SIGNED_TRANSPORT_HINT,
    }
  if (input.caCertificates?.length) {
    const chain = verifyChain(leaf, input.caCertificates, now)
    return {
      name: '3. Transport certificate chains to the ecosystem CAs',
      pass: chain.valid,
      expected: 'leaf -> issuing CA -> root CA',
      actual: chain.path.join(' -> '),
      ...(chain.valid ? {} : { hint: chain.reason ?? 'the chain is broken' }),
    }
  }
  return missing(
    '3. Transport certificate chains to the ecosystem CAs',
    'leaf -> issuing CA -> root CA',
    'import the ecosystem root and issuing CA certificates',
  )
}

/** 3. The transport certificate is valid now (nearing its expiry is a warning). */
function expiryCheck(cert: CertificateFacts, now: Date): CheckResult {
  return {
    name: '3. Transport certificate not expired',
    pass: !cert.expired && !cert.notYetValid,
    ...(cert.expiryWarning && !cert.expired ? { severity: 'warning' as const } : {}),
    expected: `valid now (${now.toISOString()})`,
    actual: cert.expired
      ? `expired on ${cert.notAfter}`
      : cert.notYetValid
        ? `not valid before ${cert.notBefore}`
        : `valid until ${cert.notAfter} (${cert.daysToExpiry} days)`,
    ...(cert.expiryWarning ? { hint: cert.expiryWarning } : {}),
  }
}

/** 3. Transport certificate: present, matches its key, belongs to the software statement, chains, not expired. */
function transportChecks(
  input: PrerequisiteInput,
  statement: SoftwareStatementDto | undefined,
  cert: CertificateFacts | undefined,
  now: Date,
): CheckResult[] {
  const checks: CheckResult[] = []
  if (!input.transportCertificate || !cert) {
    checks.push(
      missing(
        '3. Transport certificate present',
        'the transport certificate issued for the software statement',
        'import the transport certificate and its key (PEM or PKCS#12)',
      ),
    )
  } else {
    const belongs = !statement?.softwareId || !cert.softwareId || cert.softwareId === statement.softwareId
    checks.push({
      name: '3. Transport certificate present',
      pass: true,
      expected: 'a certificate issued for the software statement',
      actual: cert.subjectDn,
    })
    if (statement?.softwareId && cert.softwareId) {
      checks.push({
        name: '3. Transport certificate belongs to the software statement',
        pass: belongs,
        expected: `CN=${statement.softwareId} (the software id)`,
        actual: `CN=${cert.softwareId}`,
        // A mismatch is a warning (the sandbox may still accept it); a match needs no attention at all.
        ...(belongs
          ? {}
          : {
              severity: 'warning' as const,
              hint: 'Open Banking transport certificates carry the software id as CN: this one was issued for another software statement',
            }),
      })
    }
    checks.push(
      input.transportKey
        ? checkKeyMatch(
            input.transportKey,
            input.transportCertificate,
            '3. Transport certificate matches its private key',
          )
        : missing(
            '3. Transport certificate matches its private key',
            'the private key of the transport certificate',
            'import the key the transport certificate was issued for',
          ),
    )
    checks.push(chainCheck(input, input.transportCertificate, cert.subjectDn, now))
    checks.push(expiryCheck(cert, now))
  }
  return checks
}

/** 4. At least one redirect URI in the software statement. */
function redirectUriCheck(statement: SoftwareStatementDto | undefined): CheckResult {
  const uris = statement?.redirectUris ?? []
  return {
    name: '4. At least one redirect URI',
    pass: uris.length > 0,
    expected: 'software_redirect_uris with at least one URI',
    actual: statement ? (uris.length ? uris.join(', ') : 'none') : 'no software statement',
    ...(uris.length
      ? {}
      : { hint: 'add a redirect URI to the software statement in the directory, then issue a new SSA' }),
  }
}

/** 5. The root and issuing CA certificates held. */
function caCheck(input: PrerequisiteInput): CheckResult {
  const cas = (input.caCertificates ?? []).map((c) => ({ cert: c, node: toNodeCertificate(c) }))
  const roots = cas.filter((c) => c.node.ca && isSelfSigned(c.cert))
  const issuing = cas.filter((c) => c.node.ca && !isSelfSigned(c.cert))
  const heldCas = roots.length > 0 && issuing.length > 0
  return {
    name: '5. Root and issuing CA certificates held',
    pass: heldCas,
    expected: 'a root CA (self-signed) and an issuing CA certificate',
    actual: cas.length
      ? `roots: ${roots.map((r) => rfc4514(r.cert.subjectName)).join('; ') || 'none'}; issuing: ${issuing.map((r) => rfc4514(r.cert.subjectName)).join('; ') || 'none'}`
      : 'no CA certificates',
    ...(heldCas
      ? {}
      : {
          hint: 'download the ecosystem root and issuing CA certificates (the local sandbox writes them to its CA bundle) and import them',
        }),
  }
}

/**
 * The TPP prerequisites of the bank's spec (section 1), one check per item, in the spec's order:
 * 1. registered in the directory (an organisation id), 2. a software statement with roles,
 * 3. a transport certificate present, matching its key, chaining to the ecosystem CAs and not expired,
 * 4. at least one redirect URI, 5. the root and issuing CA certificates held.
 *
 * @example const checks = checkTppPrerequisites({ transportCertificate, transportKey, softwareStatement: ssa, caCertificates: [root, issuing] })
 */
export function checkTppPrerequisites(input: PrerequisiteInput): {
  checks: CheckResult[]
  softwareStatement?: SoftwareStatementDto
} {
  const now = input.now ?? new Date()
  let statement: SoftwareStatementDto | undefined
  let ssaError: string | undefined
  if (input.softwareStatement) {
    try {
      statement = parseSoftwareStatement(input.softwareStatement).statement
    } catch (err) {
      ssaError = isAppError(err) ? err.cause : String(err)
    }
  }
  const cert = input.transportCertificate ? inspectCertificate(input.transportCertificate, now) : undefined

  const checks: CheckResult[] = [
    directoryCheck(statement, cert),
    statementCheck(input, statement, ssaError),
    ...transportChecks(input, statement, cert, now),
    redirectUriCheck(statement),
    caCheck(input),
  ]
  return { checks, ...(statement ? { softwareStatement: statement } : {}) }
}
