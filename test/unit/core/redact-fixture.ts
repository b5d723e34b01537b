// What the redaction tests mask and remove: a JWT, a token, a code, and private keys generated at run time
// in every encoding the redactor must find (PEM PKCS#8, PKCS#1, SEC1; base64 DER; JWK).
import { generateKeyPairSync } from 'node:crypto'
import { expect } from 'vitest'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
export const jwt = `${b64({ alg: 'PS256', kid: 'k1' })}.${b64({ iss: 'client-1', aud: 'https://bank' })}.c2lnbmF0dXJlLWJ5dGVzLWxvbmctZW5vdWdo`
export const masked = (v: string) => `${v.slice(0, 8)}…${v.slice(-8)}`
export const token = 'opaque-access-token-0123456789abcdefXYZ'
export const code = 'c0de-6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b'

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const rsaPem = rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string
const rsaPkcs1Pem = rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string
const ecSec1Pem = ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string
const rsaDerB64 = (rsa.privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64')
const ecDerB64 = (ec.privateKey.export({ format: 'der', type: 'sec1' }) as Buffer).toString('base64')
const ecPkcs8DerB64 = (ec.privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64')
const certLikeB64 = (rsa.publicKey.export({ format: 'der', type: 'spki' }) as Buffer).toString('base64')
const privateJwk = rsa.privateKey.export({ format: 'jwk' }) as Record<string, string>
/** The keys in each encoding (and a public key's DER, which is no secret). */
export const keys = { rsa, rsaPem, rsaPkcs1Pem, ecSec1Pem, rsaDerB64, ecDerB64, ecPkcs8DerB64, certLikeB64, privateJwk }

/** Pieces of the key that must never survive: its base64 body lines and its JWK private members. */
const keyPieces = [
  ...rsaPem.split('\n').filter((l) => l.length > 40 && !l.startsWith('-----')),
  ...ecSec1Pem.split('\n').filter((l) => l.length > 40 && !l.startsWith('-----')),
  privateJwk.d!.slice(10, 50),
  privateJwk.p!.slice(10, 50),
  privateJwk.q!.slice(10, 50),
  rsaDerB64.slice(100, 160),
  ecDerB64.slice(20, 60),
]
export function expectNoKey(text: string): void {
  expect(text).not.toMatch(/PRIVATE KEY-----/)
  for (const piece of keyPieces) expect(text).not.toContain(piece)
}
