import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose'
import { parseCertificates } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import type { SoftwareStatementDto } from '../contract/certificates.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { PrerequisitesInput } from '../contract/tpp-tools.ts'
import { AppError } from '../core/app-error.ts'
import type { FlowHttp } from '../flows/flow-context.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { TppRecord } from './persistence/settings-schema.ts'
import type { HttpEngine } from './ports.ts'
import type { TppsService } from './tpps-service.ts'
import { jwksOf } from '../http/json-body.ts'

/** Directory organisation ids: 15 to 18 letters and digits (e.g. 0015800001041RHAAY). */
export const ORG_ID_FORMAT = /^[A-Za-z0-9]{15,18}$/

/** What the directory says, when it could be asked (`undefined`: it could not). */
export interface DirectoryFacts {
  /** Where the facts come from, for the messages. */
  source: string
  orgExists?: boolean
  /** The directory's signing keys (the SSA is signed with one of them). */
  jwks?: JSONWebKeySet
  /** Why a fact could not be had. */
  unavailable?: string
}

const notChecked = (name: string, expected: string, why: string, hint: string): CheckResult => ({
  name,
  pass: true,
  severity: 'warning',
  expected,
  actual: `not checked: ${why}`,
  hint,
})

/** The organisation id: its format, and whether the directory knows it. */
function organisationChecks(orgId: string | undefined, directory: DirectoryFacts): CheckResult[] {
  const checks: CheckResult[] = []
  checks.push({
    name: 'Organisation id format',
    pass: !!orgId && ORG_ID_FORMAT.test(orgId),
    expected: "15 to 18 letters and digits (the directory's organisation id)",
    actual: orgId ?? 'none',
    hint: "Copy the organisation id from the directory; the SSA's org_id must be it.",
  })
  if (directory.orgExists === undefined)
    checks.push(
      notChecked(
        'Organisation exists in the directory',
        `organisation ${orgId ?? '?'} registered`,
        directory.unavailable ?? `${directory.source} cannot be asked from here`,
        "Check the organisation in the directory's web interface.",
      ),
    )
  else
    checks.push({
      name: 'Organisation exists in the directory',
      pass: directory.orgExists,
      expected: `organisation ${orgId} registered in ${directory.source}`,
      actual: directory.orgExists ? 'registered' : 'unknown to the directory',
      hint: 'Register the organisation in the directory (the sandbox directory for the sandbox), or correct the org id.',
    })
  return checks
}

/** The SSA's kid on the directory's JWKS, and its signature verified with those keys. */
async function ssaSignatureChecks(ssa: string, jwks: JSONWebKeySet, source: string): Promise<CheckResult[]> {
  const checks: CheckResult[] = []
  let kid: string | undefined
  try {
    kid = decodeProtectedHeader(ssa).kid
  } catch {
    kid = undefined
  }
  const known = jwks.keys.some((k) => k.kid === kid)
  checks.push({
    name: "Software statement kid on the directory's JWKS",
    pass: !!kid && known,
    expected: `a kid among ${jwks.keys.map((k) => k.kid).join(', ') || '(no keys)'}`,
    actual: kid ?? 'no kid in the SSA header',
    hint: 'The SSA was issued by another directory (or the directory rotated its keys): issue a new SSA.',
  })
  let valid = false
  let why = ''
  try {
    await compactVerify(ssa, createLocalJWKSet(jwks))
    valid = true
  } catch (err) {
    why =
      (err as { code?: string }).code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
        ? 'the signature does not match: the SSA was changed or signed by another key'
        : (err as Error).message
  }
  checks.push({
    name: 'Software statement signed by the directory',
    pass: valid,
    expected: `signature valid with ${source}'s keys`,
    actual: valid ? 'valid' : why,
    hint: 'Paste the SSA exactly as the directory issued it; a changed SSA is refused at registration.',
  })
  return checks
}

/** The SSA signed by the directory: checked when the SSA and the directory's JWKS are known. */
async function ssaDirectoryChecks(record: TppRecord, directory: DirectoryFacts): Promise<CheckResult[]> {
  const checks: CheckResult[] = []
  if (!record.ssa) {
    checks.push({
      name: 'Software statement signed by the directory',
      pass: false,
      expected: 'a signed SSA',
      actual: 'no SSA',
      hint: 'Import the SSA the directory issued.',
    })
  } else if (!directory.jwks) {
    checks.push(
      notChecked(
        'Software statement signed by the directory',
        `signature valid with ${directory.source}'s keys`,
        directory.unavailable ?? "the directory's JWKS is not known",
        "Give the directory's JWKS (ob-console prerequisites --directory-jwks URL|FILE).",
      ),
    )
  } else {
    checks.push(...(await ssaSignatureChecks(record.ssa, directory.jwks, directory.source)))
  }
  return checks
}

/** The transport certificate's subject against the SSA (OU = org_id, CN = software_id), and the redirect URIs within the SSA's. */
function subjectChecks(record: TppRecord, statement: SoftwareStatementDto | undefined): CheckResult[] {
  const checks: CheckResult[] = []
  const cert = record.transport ? inspectCertificate(parseCertificates(record.transport.certificatePem)[0]!) : undefined
  if (cert && statement) {
    checks.push({
      name: "Transport certificate organisation (OU) is the SSA's org_id",
      pass: !!cert.orgId && cert.orgId === statement.orgId,
      expected: `OU=${statement.orgId ?? '?'}`,
      actual: cert.orgId ? `OU=${cert.orgId}` : 'no OU',
      hint: 'The bank refuses a registration whose transport certificate belongs to another organisation: use the certificate issued for this organisation.',
    })
    checks.push({
      name: "Transport certificate software (CN) is the SSA's software_id",
      pass: !!cert.softwareId && cert.softwareId === statement.softwareId,
      expected: `CN=${statement.softwareId ?? '?'}`,
      actual: cert.softwareId ? `CN=${cert.softwareId}` : 'no CN',
      hint: 'Use the transport certificate issued for this software statement.',
    })
  }
  if (statement) {
    const outside = record.redirectUris.filter((u) => !statement.redirectUris.includes(u))
    checks.push({
      name: "Redirect URIs within the SSA's",
      pass: outside.length === 0 && record.redirectUris.length > 0,
      expected: `each of ${record.redirectUris.join(', ') || '(none)'} in software_redirect_uris`,
      actual: outside.length
        ? `not in the SSA: ${outside.join(', ')}`
        : record.redirectUris.length
          ? 'all within'
          : 'the identity has none',
      hint: 'Register only redirect URIs the software statement lists; add others in the directory and issue a new SSA.',
    })
  }
  return checks
}

/**
 * The prerequisites beyond what a file shows: the organisation id's format and existence in the
 * directory, the SSA's signature and `kid` against the directory's JWKS, the transport certificate's
 * subject against the SSA (OU = org_id, CN = software_id), the identity's redirect URIs within the SSA's.
 */
export async function directoryPrerequisiteChecks(
  record: TppRecord,
  directory: DirectoryFacts,
): Promise<CheckResult[]> {
  const statement = record.ssa
    ? (() => {
        try {
          return parseSoftwareStatement(record.ssa!).statement
        } catch {
          return undefined
        }
      })()
    : undefined
  const orgId = statement?.orgId ?? record.orgId
  return [
    ...organisationChecks(orgId, directory),
    ...(await ssaDirectoryChecks(record, directory)),
    ...subjectChecks(record, statement),
  ]
}

/** The directory facts for an environment: the local sandbox's directory is asked; another is asked only for its JWKS when given. */
export async function directoryFacts(
  env: EnvironmentDto,
  http: FlowHttp,
  orgId: string | undefined,
  localDirectoryUrl: string | undefined,
  jwksUrl?: string,
): Promise<DirectoryFacts> {
  if (env.kind === 'local-sandbox' && localDirectoryUrl) {
    const jwksRes = await http.send({
      method: 'GET',
      url: `${localDirectoryUrl}/jwks`,
      label: 'directory JWKS (prerequisites)',
      clientCertificate: false,
    })
    const orgRes =
      orgId && ORG_ID_FORMAT.test(orgId)
        ? await http.send({
            method: 'GET',
            url: `${localDirectoryUrl}/organisation/${encodeURIComponent(orgId)}/jwks`,
            label: 'directory organisation (prerequisites)',
            clientCertificate: false,
          })
        : undefined
    const jwks = jwksOf(jwksRes)
    return {
      source: "the local sandbox's directory",
      ...(jwks ? { jwks } : {}),
      ...(orgRes ? { orgExists: orgRes.status === 200 } : {}),
    }
  }
  const facts: DirectoryFacts = {
    source: "the bank's directory",
    unavailable: "the bank's directory has no API the console can ask offline",
  }
  if (jwksUrl) {
    const res = await http.send({
      method: 'GET',
      url: jwksUrl,
      label: 'directory JWKS (prerequisites)',
      clientCertificate: false,
    })
    const keySet = jwksOf(res)
    if (keySet) facts.jwks = keySet
    else facts.unavailable = `${jwksUrl} answered ${res.status}, not a JWKS`
  }
  return facts
}

/**
 * Every prerequisite of an identity for an environment: what its files show (key match, chain to the CAs
 * held, expiry with days left, redirect URIs, signing key) and what the directory says. `directoryJwks`
 * is the directory's JWKS as a URL or as the JWKS document's text (the bank's directory cannot be asked).
 */
export async function checkAllPrerequisites(
  s: { tpps: TppsService; environments: EnvironmentsService; http: HttpEngine },
  input: PrerequisitesInput,
): Promise<CheckResult[]> {
  const env = s.environments.get(input.environmentId)
  const record = s.tpps.record(input.tppId)
  const given = input.directoryJwks?.trim()
  const http = s.http.forIdentity(env, undefined, {})
  const isUrl = !!given && /^https?:\/\//i.test(given)
  let facts = await directoryFacts(
    env,
    http,
    record.orgId,
    s.environments.localDirectory()?.directoryUrl,
    isUrl ? given : undefined,
  )
  if (given && !isUrl) {
    let jwks: unknown
    try {
      jwks = JSON.parse(given)
    } catch (err) {
      throw new AppError('INVALID_INPUT', {
        what: 'The directory JWKS is neither a URL nor JSON.',
        cause: (err as Error).message,
        fix: 'Paste the directory\'s JWKS document ({"keys": [...]}) or give its https URL.',
      })
    }
    if (!jwks || typeof jwks !== 'object' || !Array.isArray((jwks as { keys?: unknown }).keys)) {
      throw new AppError('INVALID_INPUT', {
        what: 'The directory JWKS has no "keys" array.',
        cause: 'A JWKS document is {"keys": [ ... ]}.',
        fix: 'Paste the document the directory publishes at its JWKS URL.',
      })
    }
    facts = { ...facts, jwks: jwks as JSONWebKeySet, source: 'the JWKS given' }
  }
  return [...(await s.tpps.checkPrerequisites(input.tppId)), ...(await directoryPrerequisiteChecks(record, facts))]
}
