import { parseArgs } from 'node:util'
import { verifyChain } from '../certificates/chain.ts'
import { parseCertificates, parsePrivateKey } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { checkKeyMatch } from '../certificates/key-match.ts'
import type { CheckResult } from '../contract/checks.ts'
import { formatChecks, readInput, reportError, UsageError } from './cli-support.ts'
import { CERT_USAGE } from './usage.ts'
import { writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { CERT_USAGE }

/** `ob-console cert inspect`: certificate facts, key match and chain, for people and scripts. */
export async function runCertCommand(argv: string[]): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub !== 'inspect') throw new UsageError(sub ? `unknown cert command "${sub}"` : 'cert needs a command')
    let parsed
    try {
      parsed = parseArgs({
        args: rest,
        options: {
          key: { type: 'string' },
          ca: { type: 'string', multiple: true },
          json: { type: 'boolean' },
          passphrase: { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      })
    } catch (err) {
      throw new UsageError((err as Error).message.split('\n')[0]!)
    }
    const file = parsed.positionals[0]
    if (!file) throw new UsageError('cert inspect needs a FILE (PEM)')
    const certs = parseCertificates(readInput(file), file)
    const inspected = certs.map((c) => inspectCertificate(c))
    const checks: CheckResult[] = []
    if (parsed.values.key)
      checks.push(
        checkKeyMatch(
          parsePrivateKey(readInput(parsed.values.key), parsed.values.passphrase, parsed.values.key),
          certs[0]!,
        ),
      )
    if (parsed.values.ca?.length) {
      const cas = parsed.values.ca.flatMap((f) => parseCertificates(readInput(f), f))
      checks.push(...verifyChain(certs[0]!, cas).checks)
    }
    if (parsed.values.json) {
      writeJsonOut({ certificates: inspected, checks })
    } else {
      for (const c of inspected) {
        writeOut(
          [
            `Certificate ${c.subjectDn}`,
            `  issuer            ${c.issuerDn}`,
            `  serial            ${c.serialNumber}`,
            `  valid             ${c.notBefore} to ${c.notAfter} (${c.expired ? 'EXPIRED' : `${c.daysToExpiry} days left`})${c.expiryWarning ? `  ! ${c.expiryWarning}` : ''}`,
            `  key               ${c.publicKey.type}${c.publicKey.size ? ` ${c.publicKey.size}` : ''}${c.publicKey.curve ? ` ${c.publicKey.curve}` : ''}`,
            `  SANs              ${c.subjectAltNames.map((s) => `${s.type}:${s.value}`).join(', ') || 'none'}`,
            `  SHA-256           ${c.sha256Hex}`,
            `  x5t#S256          ${c.x5tS256}`,
            `  tls_client_auth   ${c.tlsClientAuthSubjectDn}`,
            ...(c.orgId || c.softwareId
              ? [`  Open Banking      org ${c.orgId ?? '?'}, software ${c.softwareId ?? '?'}`]
              : []),
            `  CA                ${c.isCa ? 'yes' : 'no'}${c.selfSigned ? ' (self-signed)' : ''}`,
            '',
          ].join('\n'),
        )
      }
      if (checks.length) writeOut(`Checks\n${formatChecks(checks)}\n`)
    }
    return checks.every((c) => c.pass) ? 0 : 1
  } catch (err) {
    return reportError(err, CERT_USAGE)
  }
}
