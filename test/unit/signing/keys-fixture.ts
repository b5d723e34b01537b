// RSA signing keys generated at run time for the signing tests.
import { generateKeyPairSync } from 'node:crypto'
import type { JSONWebKeySet } from 'jose'
import { ps256SigningKey, publicSigningJwk, type SigningKey } from '../../../src-main/signing/signing-key.ts'

export function rsaSigner(kid = 'kid-1'): SigningKey {
  return ps256SigningKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, kid)
}

export function jwksOf(...signers: SigningKey[]): JSONWebKeySet {
  return { keys: signers.map(publicSigningJwk) }
}

export function b64json(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url')
}

export function ssa(claims: Record<string, unknown> = {}): string {
  return `${b64json({ alg: 'PS256', kid: 'dir', typ: 'JWT' })}.${b64json({
    iss: 'OpenBanking Ltd',
    software_id: 'SoftwareId123',
    org_id: 'Org001',
    software_roles: ['AISP', 'PISP'],
    software_redirect_uris: ['https://tpp.example/callback', 'https://tpp.example/other'],
    ...claims,
  })}.c2ln`
}
