/**
 * Ground truth for the secret scans: what private key material and which tokens and codes a journey
 * produced, read on the main side (in-process) or from the raw exchanges, and a scan of recorded text
 * that fails on any of them. Written without the console's redactor, so a bug there cannot hide here.
 */
import type { KeyObject } from 'node:crypto'
import { createPrivateKey } from 'node:crypto'

/**
 * Pieces of a private key that must never appear, in any encoding: its private values only (an RSA key's
 * encodings start with the public modulus, which the certificate carries too): the later base64 lines of
 * its PEM forms, the later part of its DER (base64 and hex), of the base64 of its PEM file at each
 * alignment, and the JWK private members (also as base64 and hex of their bytes).
 */
export function keyPieces(key: KeyObject | string): string[] {
  const k = typeof key === 'string' ? createPrivateKey(key) : key
  const pieces: string[] = []
  const later = (text: string, at = 0.6) => text.slice(Math.floor(text.length * at), Math.floor(text.length * at) + 36)
  const jwk = k.export({ format: 'jwk' }) as Record<string, string>
  for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
    if (!jwk[m]) continue
    const bytes = Buffer.from(jwk[m]!, 'base64url')
    pieces.push(jwk[m]!.slice(4, 36), bytes.toString('base64').slice(4, 36), bytes.toString('hex').slice(8, 56))
  }
  if (k.asymmetricKeyType === 'rsa') {
    for (const pem of [
      k.export({ format: 'pem', type: 'pkcs8' }) as string,
      k.export({ format: 'pem', type: 'pkcs1' }) as string,
    ]) {
      const lines = pem.split('\n').filter((l) => l && !l.startsWith('-----'))
      for (let i = Math.ceil(lines.length * 0.4); i < lines.length - 1; i++) pieces.push(lines[i]!.slice(4, 40))
      for (const prefix of ['', 'x', 'xy']) {
        pieces.push(
          later(Buffer.from(prefix + pem).toString('base64')),
          later(Buffer.from(prefix + pem).toString('base64url'), 0.7),
        )
      }
    }
    const der = k.export({ format: 'der', type: 'pkcs8' }) as Buffer
    pieces.push(later(der.toString('base64')), later(der.toString('hex'), 0.8))
  }
  return pieces
}

/** Markers of private key material whatever the key: PEM armour, and its base64 (`-----BEGIN PRIVATE`, `PRIVATE KEY-----`). */
export const KEY_MARKERS = [
  /PRIVATE KEY-----/,
  /LS0tLS1CRUdJTiBQUklWQVRF|LS0tLS1CRUdJTiBSU0EgUFJJVkFURS|LS0tLS1CRUdJTiBFQyBQUklWQVRF/,
]

const SECRET_JSON = ['access_token', 'refresh_token', 'id_token', 'registration_access_token', 'client_secret']
const SECRET_FORM = [
  'code',
  'client_assertion',
  'client_secret',
  'refresh_token',
  'password',
  'access_token',
  'id_token',
]

function paramsOf(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const pair of text.split(/[&?#]/)) {
    const i = pair.indexOf('=')
    if (i <= 0) continue
    try {
      out.push([decodeURIComponent(pair.slice(0, i)), decodeURIComponent(pair.slice(i + 1).replace(/\+/g, ' '))])
    } catch {
      out.push([pair.slice(0, i), pair.slice(i + 1)])
    }
  }
  return out
}

function jsonSecrets(text: string, out: Set<string>): void {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return
  }
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk)
    if (!v || typeof v !== 'object') return
    for (const [k, x] of Object.entries(v)) {
      if (SECRET_JSON.includes(k) && typeof x === 'string' && x) out.add(x)
      else walk(x)
    }
  }
  walk(parsed)
}

/** An exchange as recorded (raw), in the shape the tests need. */
export interface RawExchange {
  request: { url: string; headers: Array<[string, string]>; body?: { text: string } }
  response?: { headers: Array<[string, string]>; body?: { text: string } }
}

/** Every token, code, assertion and credential a raw exchange carries. */
export function exchangeSecrets(x: RawExchange, out: Set<string>): void {
  const add = (v: string | undefined) => {
    if (v && v.length >= 6) out.add(v)
  }
  for (const [name, value] of x.request.headers) {
    const m = /^(?:Bearer|Basic)\s+(\S+)$/i.exec(value)
    if (name.toLowerCase() === 'authorization' && m) add(m[1])
  }
  for (const [name, value] of paramsOf(x.request.url)) if (SECRET_FORM.includes(name)) add(value)
  const reqBody = x.request.body?.text ?? ''
  if (reqBody) {
    for (const [name, value] of paramsOf(reqBody)) if (SECRET_FORM.includes(name)) add(value)
    jsonSecrets(reqBody, out)
  }
  for (const [name, value] of x.response?.headers ?? []) {
    if (name.toLowerCase() === 'location') for (const [n, v] of paramsOf(value)) if (SECRET_FORM.includes(n)) add(v)
  }
  const resBody = x.response?.body?.text ?? ''
  if (resBody) {
    jsonSecrets(resBody, out)
    for (const m of resBody.matchAll(/[?#&](code|id_token|access_token)=([^&"'<\s]+)/g)) add(m[2])
  }
}

/** Fails (throws, naming where and what kind) on any key piece or marker, or any secret not in `allowed`. */
export function scan(
  recorded: Array<{ where: string; text: string }>,
  keys: string[],
  secrets: Set<string>,
  allowed: Set<string>,
): void {
  for (const { where, text } of recorded) {
    for (const marker of KEY_MARKERS) if (marker.test(text)) throw new Error(`private key marker ${marker} in ${where}`)
    for (const piece of keys) {
      const at = text.indexOf(piece)
      if (at >= 0)
        throw new Error(
          `private key material (${piece.slice(0, 6)}…, key piece ${keys.indexOf(piece)}) in ${where}, after "${text.slice(Math.max(0, at - 80), at).replace(/[A-Za-z0-9+/=_-]{30,}/g, '<b64>')}"`,
        )
    }
    for (const s of secrets)
      if (!allowed.has(s) && text.includes(s))
        throw new Error(`unmasked secret ${s.slice(0, 6)}… (${s.length} chars) in ${where}`)
  }
}

/**
 * The secrets a masked text carries by name, checked without knowing their values: every token, code,
 * assertion and credential under a secret name, and every `Bearer`/`Basic` credential, must be masked
 * (`abcdefgh…12345678` or `••••••••`, or a placeholder in words). Returns how many masked values it saw (so a scan that saw none
 * fails in the caller). JSON `code` members that are error codes (UPPER_SNAKE, dotted) are not secrets.
 */
export function maskedByName(text: string, where: string): number {
  // Masked, or a placeholder in words (the registration's `client_secret: "(stored encrypted)"`).
  const masked = /^(?:[^\s…]{1,8}…[^\s…]{1,8}|•+|\([a-z ]+\))$/
  let seen = 0
  const check = (name: string, value: string) => {
    if (masked.test(value)) {
      seen++
      return
    }
    if (name === 'code' && /^[A-Z][A-Za-z0-9_.]*$/.test(value)) return
    throw new Error(`unmasked ${name} "${value.slice(0, 10)}…" in ${where}`)
  }
  const names =
    'access_token|refresh_token|id_token|registration_access_token|client_secret|client_assertion|code|accessToken|refreshToken|idToken'
  for (const m of text.matchAll(new RegExp(`\\\\?"(${names})\\\\?"\\s*:\\s*\\\\?"([^"\\\\]*)`, 'g')))
    check(m[1]!, m[2]!)
  for (const m of text.matchAll(new RegExp(`[?#&\\s"'](${names})=([^&"'#\\s\\\\]+)`, 'g'))) check(m[1]!, m[2]!)
  for (const m of text.matchAll(/\b(Bearer|Basic) ([^"'\s\\]+)/g)) check(m[1]!, m[2]!)
  return seen
}
