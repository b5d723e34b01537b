import type { X509Certificate as NodeX509 } from 'node:crypto'
import type { ChainResultDto } from '../contract/certificates.ts'
import type { CheckResult } from '../contract/checks.ts'
import { AppError } from '../core/app-error.ts'
import { toNodeCertificate } from './inspect.ts'
import { dnValue, rfc4514 } from './subject-dn.ts'
import { x509 } from '../plumbing/x509.ts'

const MAX_DEPTH = 8

interface Link {
  cert: x509.X509Certificate
  node: NodeX509
  dn: string
}

function link(cert: x509.X509Certificate): Link {
  return { cert, node: toNodeCertificate(cert), dn: rfc4514(cert.subjectName) }
}

function shortName(l: Link): string {
  return dnValue(l.cert.subjectName, 'CN') ?? l.dn
}

function isSelfSigned(l: Link): boolean {
  return l.dn === rfc4514(l.cert.issuerName) && l.node.verify(l.node.publicKey)
}

function validityCheck(l: Link, now: Date): CheckResult {
  const { notBefore, notAfter } = l.cert
  const pass = now >= notBefore && now <= notAfter
  return {
    name: `${shortName(l)} is within its validity period`,
    pass,
    expected: `${notBefore.toISOString()} to ${notAfter.toISOString()}`,
    actual: now.toISOString(),
    ...(pass
      ? {}
      : {
          hint:
            now > notAfter
              ? `expired on ${notAfter.toISOString()}: get a renewed certificate`
              : `not valid before ${notBefore.toISOString()}: check the computer's clock`,
        }),
  }
}

/** A self-signed certificate at the top of the chain: trusted only when it is one of the given CAs. */
function rootCheck(current: Link, cas: Link[]): CheckResult {
  const trusted = cas.some((ca) => ca.node.raw.equals(current.node.raw))
  return {
    name: `${shortName(current)} is a trusted root`,
    pass: trusted,
    expected: 'a self-signed root among the given CA certificates',
    actual: trusted ? 'found among the given CA certificates' : 'self-signed, but not among the given CA certificates',
    ...(trusted ? {} : { hint: 'add this root to the CA certificates if you trust it' }),
  }
}

/** No given CA signed `current`: one of its name with another key, or none of its name (what to add, by depth). */
function issuerMissing(
  current: Link,
  issuerDn: string,
  sameName: boolean,
  depth: number,
): CheckResult & { hint: string } {
  const reason = sameName
    ? `a CA named ${issuerDn} is among the given CAs, but its key did not sign ${shortName(current)}: it is another CA with the same name (re-download the issuing CA of this environment)`
    : depth === 0
      ? `the issuer of ${shortName(current)} (${issuerDn}) is not among the given CA certificates: add the issuing CA and the root`
      : `the chain stops at ${shortName(current)}: its issuer (${issuerDn}) is not among the given CA certificates: add the root CA`
  return {
    name: `${shortName(current)} is issued by a given CA`,
    pass: false,
    expected: issuerDn,
    actual: sameName ? 'same name, different key' : 'no CA certificate with that name',
    hint: reason,
  }
}

/**
 * Builds and checks the chain from `leaf` up to a self-signed root among `caCertificates` (issuing CA,
 * then root): each link's issuer name and signature, that each issuer is a CA, path length limits and
 * every validity period. `reason` says where and why the chain breaks.
 *
 * @example const result = verifyChain(transportCert, [issuingCa, rootCa], clock.now())
 *          if (!result.valid) console.log(result.reason)
 */
export function verifyChain(
  leaf: x509.X509Certificate,
  caCertificates: x509.X509Certificate[],
  now: Date = new Date(),
): ChainResultDto {
  const cas = caCertificates.map(link)
  const checks: CheckResult[] = []
  let current = link(leaf)
  const path = [current.dn]
  const result = (valid: boolean, reason?: string): ChainResultDto => ({
    valid: valid && checks.every((c) => c.pass),
    path,
    ...(reason ? { reason } : {}),
    checks,
  })

  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const validity = validityCheck(current, now)
    checks.push(validity)
    if (!validity.pass) return result(false, `${shortName(current)}: ${validity.hint}`)

    if (isSelfSigned(current)) {
      const root = rootCheck(current, cas)
      checks.push(root)
      return root.pass
        ? result(true)
        : result(false, `${shortName(current)} is self-signed and is not one of the given CA certificates`)
    }

    const issuerDn = rfc4514(current.cert.issuerName)
    const named = cas.filter((ca) => ca.dn === issuerDn)
    const issuer = named.find((ca) => current.node.verify(ca.node.publicKey))
    if (!issuer) {
      const missing = issuerMissing(current, issuerDn, named.length > 0, depth)
      checks.push(missing)
      return result(false, missing.hint)
    }
    const basic = issuer.cert.getExtension(x509.BasicConstraintsExtension)
    const usage = issuer.cert.getExtension(x509.KeyUsagesExtension)
    const canSign = !usage || (usage.usages & x509.KeyUsageFlags.keyCertSign) !== 0
    const isCa = basic?.ca === true && canSign
    checks.push({
      name: `${shortName(current)} is issued by ${shortName(issuer)}`,
      pass: true,
      expected: issuerDn,
      actual: issuer.dn,
    })
    checks.push({
      name: `${shortName(issuer)} may issue certificates`,
      pass: isCa,
      expected: 'basicConstraints cA=true and keyUsage keyCertSign',
      actual: `${basic ? `cA=${String(basic.ca)}` : 'no basicConstraints'}${canSign ? '' : ', no keyCertSign'}`,
      ...(isCa
        ? {}
        : { hint: `${shortName(issuer)} is not a CA certificate; the issuing CA file may be the wrong one` }),
    })
    if (!isCa)
      return result(
        false,
        `${shortName(issuer)} is not a CA certificate (basicConstraints cA is not true, or keyCertSign is missing)`,
      )
    // CA certificates between this issuer and the leaf: `depth` of them.
    if (basic?.pathLength !== undefined && depth > basic.pathLength) {
      checks.push({
        name: `${shortName(issuer)} path length`,
        pass: false,
        expected: `at most ${basic.pathLength} intermediate CA(s) below it`,
        actual: String(depth),
      })
      return result(
        false,
        `${shortName(issuer)} allows at most ${basic.pathLength} intermediate CA(s) below it, the chain has ${depth}`,
      )
    }
    current = issuer
    path.push(current.dn)
  }
  return result(false, `the chain is longer than ${MAX_DEPTH} certificates`)
}

/**
 * Throws CERTIFICATE_CHAIN_INVALID (naming the broken link) unless `leaf` chains to a root among
 * `caCertificates`; returns the chain result otherwise.
 *
 * @example assertChainValid(transportCert, [issuingCa, rootCa], clock.now())
 */
export function assertChainValid(
  leaf: x509.X509Certificate,
  caCertificates: x509.X509Certificate[],
  now: Date = new Date(),
): ChainResultDto {
  const result = verifyChain(leaf, caCertificates, now)
  if (result.valid) return result
  throw new AppError('CERTIFICATE_CHAIN_INVALID', {
    what: `Checking the chain of ${result.path[0]} failed`,
    cause: result.reason ?? 'the chain is broken',
    fix: "import the ecosystem's issuing and root CA certificates (the environment's CA bundle), or use a certificate issued by them",
    details: { path: result.path.join(' -> ') },
  })
}
