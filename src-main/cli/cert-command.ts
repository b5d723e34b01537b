import type { KeyObject } from 'node:crypto'
import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { verifyChain } from '../certificates/chain.ts'
import { parseCertificates, parsePrivateKey } from '../certificates/import-pem.ts'
import { importPkcs12 } from '../certificates/import-pkcs12.ts'
import { isPem } from '../certificates/pem.ts'
import { x509 } from '../plumbing/x509.ts'
import { AppError, isAppError } from '../core/app-error.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { checkKeyMatch } from '../certificates/key-match.ts'
import type { CheckResult } from '../contract/checks.ts'
import { formatChecks, reportError, UsageError } from './cli-support.ts'
import { inputFile, isBinary, parseFlags, readInput, readInputBytes } from './flags.ts'
import { CERT_USAGE } from './usage.ts'
import { writeErr, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { CERT_USAGE }

/** A passphrase typed at the terminal, not echoed. */
function promptHidden(question: string): Promise<string> {
  const muted = new Writable({ write: (_chunk, _enc, done) => done() })
  writeErr(question)
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true })
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      rl.close()
      writeErr('\n')
      resolve(line)
    })
  })
}

/**
 * The certificates of FILE, whatever its form (told by its content): PEM text, one DER X.509 certificate, or a
 * PKCS#12 file (.p12/.pfx) opened with --passphrase, or a passphrase typed at the terminal; a PKCS#12 file's
 * private key comes along for the key-match check.
 */
async function readCertificates(
  file: string,
  passphrase: string | undefined,
): Promise<{ certs: x509.X509Certificate[]; key?: KeyObject; form: string }> {
  const bytes = readInputBytes(file)
  const latin1 = bytes.toString('latin1')
  if (isPem(latin1)) return { certs: parseCertificates(bytes.toString('utf8'), file), form: 'PEM' }
  if (bytes.length === 0) return { certs: parseCertificates('', file), form: 'PEM' }
  try {
    return { certs: [new x509.X509Certificate(bytes)], form: 'DER' }
  } catch {
    // Not one DER certificate: a PKCS#12 file, or neither.
  }
  const open = (pass: string | undefined) => {
    const p12 = importPkcs12(bytes, pass, file)
    return { certs: p12.certificates, ...(p12.privateKey ? { key: p12.privateKey } : {}), form: 'PKCS#12' }
  }
  try {
    return open(passphrase)
  } catch (err) {
    if (!isAppError(err)) throw err
    if (err.code === 'PASSPHRASE_REQUIRED') {
      if (process.stdin.isTTY) return open(await promptHidden(`Passphrase of ${file}: `))
      throw new AppError('PASSPHRASE_REQUIRED', {
        what: `${file} is a PKCS#12 file protected by a passphrase.`,
        cause: 'No --passphrase was given, and there is no terminal to ask for one.',
        fix: 'Give --passphrase PASS (or run the command in a terminal, which asks for it).',
      })
    }
    if (err.code !== 'CERTIFICATE_INVALID' || !/not DER-encoded|not a PKCS#12 structure/.test(err.cause)) throw err
    const text = !isBinary(latin1.slice(0, 4096))
    throw new AppError('CERTIFICATE_INVALID', {
      what: `Reading ${file} failed.`,
      cause: text
        ? 'It is text, but holds no PEM block (no "-----BEGIN CERTIFICATE-----" line).'
        : 'It is binary, but neither a DER X.509 certificate nor a PKCS#12 (.p12/.pfx) file.',
      fix: 'Give a certificate file: PEM (-----BEGIN CERTIFICATE-----), DER (.cer/.der) or PKCS#12 (.p12/.pfx, with --passphrase).',
    })
  }
}

/** `ob-console cert inspect`: certificate facts, key match and chain, for people and scripts. */
export async function runCertCommand(argv: string[]): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub !== 'inspect')
      throw new UsageError(
        sub ? `unknown cert command "${sub}"` : 'cert needs a command',
        'Give one of: cert inspect FILE, cert generate, cert attach.',
      )
    const parsed = parseFlags(
      rest,
      {
        key: { type: 'string' },
        ca: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        passphrase: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      1,
    )
    const file = parsed.positionals[0]
    if (!file)
      throw new UsageError(
        'cert inspect needs a FILE',
        'Give the certificate file: PEM, DER (.cer/.der) or PKCS#12 (.p12/.pfx, with --passphrase).',
      )
    // Every file is checked before any is read.
    if (file !== '-') inputFile(undefined, file)
    if (parsed.values.key) inputFile('key', parsed.values.key)
    for (const ca of parsed.values.ca ?? []) inputFile('ca', ca)
    const { certs, key: bundledKey } = await readCertificates(file, parsed.values.passphrase)
    const inspected = certs.map((c) => inspectCertificate(c))
    const checks: CheckResult[] = []
    if (parsed.values.key)
      checks.push(
        checkKeyMatch(
          parsePrivateKey(readInput(parsed.values.key, 'key'), parsed.values.passphrase, parsed.values.key),
          certs[0]!,
        ),
      )
    else if (bundledKey) checks.push(checkKeyMatch(bundledKey, certs[0]!))
    if (parsed.values.ca?.length) {
      const cas = parsed.values.ca.flatMap((f) => parseCertificates(readInputBytes(f, 'ca'), f))
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
