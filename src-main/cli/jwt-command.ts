import type { JSONWebKeySet } from 'jose'
import { createPublicKey, X509Certificate } from 'node:crypto'
import type { JwtVerifyInput } from '../contract/api.ts'
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { Agent, request } from 'undici'
import { AppError, isAppError } from '../core/app-error.ts'
import { systemClock } from '../core/clock.ts'
import { verifyJwt } from '../services/jwt-debugger.ts'
import { decodeJwt } from '../signing/jwt-decode.ts'
import { formatChecks, reportError, UsageError } from './cli-support.ts'
import {
  choiceFlag,
  httpsUrlFlag,
  inputFile,
  MAX_INPUT_BYTES,
  parseFlags,
  readInput,
  withoutControls,
} from './flags.ts'
import { JWT_USAGE } from './usage.ts'
import { writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { JWT_USAGE }

/**
 * The token: standard input for "-", a file when one of that name exists, else the argument itself (a
 * malformed token is reported as a malformed token, not as a missing file).
 */
function tokenFrom(arg: string | undefined): { token: string; fromArgument: boolean } {
  if (!arg)
    throw new UsageError(
      'give the token, a file holding it, or - for standard input',
      'Run ob-console jwt decode TOKEN|FILE|- (verify likewise, with --key or --jwks).',
    )
  if (arg === '-' || existsSync(arg)) return { token: readInput(arg).trim(), fromArgument: false }
  if (arg.length > MAX_INPUT_BYTES)
    throw new AppError('INVALID_INPUT', {
      what: `The token argument is too large: ${(arg.length / 1024 / 1024).toFixed(1)} MiB.`,
      cause: `The console reads at most ${MAX_INPUT_BYTES / 1024} KiB as a token; JWTs are a few KiB.`,
      fix: 'Give the token itself, not a log or a dump that holds it.',
    })
  if (/[\\/]/.test(arg) || !arg.includes('.'))
    throw new UsageError(
      `"${arg.length > 60 ? `${arg.slice(0, 60)}…` : arg}" is neither a file nor a JWT (a JWT is three base64url parts joined by dots)`,
    )
  return { token: arg.trim(), fromArgument: true }
}

/** Decodes, saying when the argument was taken as a token because no file of that name exists. */
function decodeArgument(t: { token: string; fromArgument: boolean }) {
  try {
    return decodeJwt(t.token)
  } catch (err) {
    if (isAppError(err) && t.fromArgument)
      throw new AppError(err.code, {
        what: err.what,
        cause: `${err.cause} (No file of that name exists either, so the argument was read as the token itself.)`,
        fix: err.fix,
      })
    throw err
  }
}

const TLS_UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
])

/**
 * A PEM public key or certificate, read with Node's own parser first: a corrupted PEM is named as such, not
 * reported later as a key that does not fit the token's alg.
 */
function checkPublicPem(pem: string, file: string): void {
  const kind = pem.includes('BEGIN CERTIFICATE') ? 'certificate' : pem.includes('BEGIN PUBLIC KEY') ? 'public key' : ''
  if (!kind) return
  try {
    if (kind === 'certificate') new X509Certificate(pem)
    else createPublicKey(pem)
  } catch (err) {
    throw new AppError('KEY_INVALID', {
      what: `--key ${file}: the PEM ${kind} cannot be read.`,
      cause: `Its content is damaged or cut: ${(err as Error).message}.`,
      fix: `Export the ${kind} again (BEGIN and END lines included, nothing changed between them).`,
    })
  }
}

/** A JWKS file given to --key: `{"keys": [...]}`. */
/** A JSON object with a `keys` array: a JWKS as far as its shape goes (jose checks each key when it is used). */
function isJwks(v: unknown): v is JSONWebKeySet {
  return !!v && typeof v === 'object' && Array.isArray((v as { keys?: unknown }).keys)
}

const JWT_OPTIONS = {
  key: { type: 'string' },
  jwks: { type: 'string' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  rules: { type: 'string' },
  expect: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

type JwtValues = ReturnType<typeof parseFlags<typeof JWT_OPTIONS>>['values']

/** `decode` takes none of verify's flags. */
function checkDecodeFlags(v: JwtValues): void {
  const misplaced = (['key', 'jwks', 'ca', 'insecure', 'rules', 'expect'] as const).find((f) => v[f] !== undefined)
  if (misplaced)
    throw new UsageError(`--${misplaced} does not apply to jwt decode`, `Use --${misplaced} with jwt verify.`)
}

/** `verify` takes one key (--key FILE or --jwks URL), --ca and --insecure with --jwks only. */
function checkVerifyFlags(v: JwtValues): void {
  if (!v.key && !v.jwks)
    throw new UsageError(
      'jwt verify needs --key FILE or --jwks URL',
      'Give --key FILE (a PEM public key or certificate, a JWK or a JWKS) or --jwks https://… .',
    )
  if (v.key && v.jwks) throw new UsageError('give --key or --jwks, not both', 'Leave one of them out.')
  if (v.rules) choiceFlag('rules', v.rules, ['registration', 'request-object', 'id-token'])
  if (v.jwks)
    httpsUrlFlag(
      'jwks',
      v.jwks,
      'Give the https URL of the JWKS (with --ca FILE for a private CA), or save the JWKS and give it with --key FILE.',
    )
  if ((v.ca || v.insecure) && !v.jwks)
    throw new UsageError(`--${v.ca ? 'ca' : 'insecure'} applies with --jwks only`, 'Leave it out with --key.')
  if (v.key) inputFile('key', v.key)
  if (v.ca) inputFile('ca', v.ca)
}

/** The claims `--expect name=value` asks for. */
function expectedClaims(list: readonly string[] | undefined): Record<string, string> {
  const expected: Record<string, string> = {}
  for (const e of list ?? []) {
    const i = e.indexOf('=')
    if (i < 1) throw new UsageError(`--expect takes name=value, got "${e}"`, 'Give --expect issuer=https://…')
    expected[e.slice(0, i)] = e.slice(i + 1)
  }
  return expected
}

/** The key of `--key FILE`: a PEM public key or certificate, a JWK, or a JWKS (chosen from by the token's kid). */
function keyFromFile(file: string): { key: JwtVerifyInput['key']; jwksFile?: JSONWebKeySet } {
  const text = readInput(file, 'key').trim()
  if (!text.startsWith('{')) {
    checkPublicPem(text, file)
    return { key: { pem: text } }
  }
  let parsedKey: unknown
  try {
    parsedKey = JSON.parse(text)
  } catch (err) {
    throw new AppError('KEY_INVALID', {
      what: `${file} is not valid JSON.`,
      cause: (err as Error).message,
      fix: 'Give a PEM public key or certificate, a public JWK, or a JWKS ({"keys": [...]}).',
    })
  }
  // A JWKS file: the key is chosen by the token's kid, as with --jwks.
  if (isJwks(parsedKey)) return { key: { jwksUrl: pathToFileURL(file).href }, jwksFile: parsedKey }
  return { key: { jwk: parsedKey as Record<string, unknown> } }
}

/** A failed connection to the JWKS server, named: an untrusted certificate, or nothing listening. */
function connectionError(jwksUrl: string, ca: string | undefined) {
  return (err: Error & { code?: string; cause?: { code?: string } }): never => {
    const code = err.code ?? err.cause?.code ?? ''
    if (TLS_UNTRUSTED.has(code)) {
      throw new AppError('TLS_SERVER_UNTRUSTED', {
        what: `The JWKS server ${new URL(jwksUrl).origin} is not trusted.`,
        cause: `Its certificate does not chain to ${ca ? `the CAs in ${ca}` : 'a CA this computer trusts'} (${code}).`,
        fix: ca
          ? "Give the CA bundle that issued the server's certificate with --ca."
          : "Give the server's CA bundle with --ca FILE (for the local sandbox: its ca-bundle.pem), or --insecure for a sandbox whose certificate is not checked.",
      })
    }
    if (code === 'ECONNREFUSED')
      throw new AppError('CONNECTION_REFUSED', {
        what: `Nothing answers at ${new URL(jwksUrl).origin}.`,
        cause: 'The connection was refused.',
        fix: 'Check the URL and that the server runs.',
      })
    throw err
  }
}

/** The JWKS a server answered: a 200 with a JSON type and a `keys` array, else a coded error saying which. */
function readJwksAnswer(jwksUrl: string, statusCode: number, contentType: unknown, body: string): JSONWebKeySet {
  if (statusCode !== 200)
    throw new AppError('HTTP_ERROR', {
      what: `The JWKS at ${jwksUrl} answered ${statusCode}.`,
      cause: withoutControls(body.slice(0, 200)),
      fix: 'Check the URL.',
    })
  const type = String(contentType ?? 'no content type')
    .split(';')[0]!
    .trim()
  const notJwks = (cause: string) =>
    new AppError('KEY_INVALID', {
      what: `${jwksUrl} is not a JWKS: ${cause}.`,
      cause: 'A JWKS is a JSON object {"keys": [...]} served as application/json (or application/jwk-set+json).',
      fix: "Check the URL: it should be the JWKS endpoint (the software statement's software_jwks_endpoint, or the bank's jwks_uri).",
    })
  if (!/^application\/([\w.-]+\+)?json$/i.test(type))
    throw notJwks(`the server answered ${type.replace(/[^\w./+-]/g, '?').slice(0, 80)}`)
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    throw notJwks('its body is not JSON')
  }
  if (!isJwks(json)) throw notJwks('its JSON has no "keys" array')
  return json
}

/** Fetches a JWKS over https, trusting --ca's CAs (or none checked with --insecure). */
async function fetchJwksOver(jwksUrl: string, ca: string | undefined, insecure: boolean): Promise<JSONWebKeySet> {
  const agent = new Agent({
    connect: { ...(ca ? { ca: readInput(ca, 'ca') } : {}), rejectUnauthorized: !insecure },
  })
  try {
    const res = await request(jwksUrl, { dispatcher: agent }).catch(connectionError(jwksUrl, ca))
    const body = await res.body.text()
    return readJwksAnswer(jwksUrl, res.statusCode, res.headers['content-type'], body)
  } finally {
    await agent.close()
  }
}

/** `jwt decode`: the header, claims, times and signature (JSON, or labelled). */
function printDecoded(arg: { token: string; fromArgument: boolean }, json: boolean): number {
  const d = decodeArgument(arg)
  if (json) writeJsonOut(d)
  else
    writeOut(
      `header  ${JSON.stringify(d.header, null, 2)}\nclaims  ${JSON.stringify(d.claims ?? null, null, 2)}\ntimes   ${JSON.stringify(d.times)}\nsignature ${d.signature}\n`,
    )
  return 0
}

/** `jwt verify`: the token checked with the key given, each check printed; exit 1 when one fails. */
async function verifyToken(arg: { token: string; fromArgument: boolean }, v: JwtValues): Promise<number> {
  const expected = expectedClaims(v.expect)
  decodeArgument(arg)
  const { key, jwksFile } = v.key ? keyFromFile(v.key) : { key: { jwksUrl: v.jwks! }, jwksFile: undefined }
  const fetchJwks = async ({ jwksUrl }: { jwksUrl?: string }) => jwksFile ?? fetchJwksOver(jwksUrl!, v.ca, !!v.insecure)
  const result = await verifyJwt(
    { token: arg.token, key, ...(v.rules ? { rules: v.rules as JwtVerifyInput['rules'] } : {}), expected },
    fetchJwks,
    systemClock(),
  )
  if (v.json) writeJsonOut(result)
  else writeOut(`${formatChecks(result.checks)}\n`)
  return result.checks.every((c) => c.pass) ? 0 : 1
}

/** `ob-console jwt decode|verify`: the JWT debugger from the command line. */
export async function runJwtCommand(argv: string[]): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub !== 'decode' && sub !== 'verify')
      throw new UsageError(sub ? `unknown jwt command "${sub}"` : 'jwt needs a command: decode or verify')
    const parsed = parseFlags(rest, JWT_OPTIONS, 1)
    if (sub === 'decode') checkDecodeFlags(parsed.values)
    else checkVerifyFlags(parsed.values)
    const arg = tokenFrom(parsed.positionals[0])
    return sub === 'decode' ? printDecoded(arg, !!parsed.values.json) : await verifyToken(arg, parsed.values)
  } catch (err) {
    return reportError(err, JWT_USAGE)
  }
}
