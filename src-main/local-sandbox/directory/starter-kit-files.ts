import { X509Certificate, createHash } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { SandboxAddresses } from '../context.ts'
import type { StarterKit } from './types.ts'

/** The files of a starter kit, by role. `transport.key` and `signing.key` are written mode 0600. */
export const STARTER_KIT_FILES = {
  transportCert: 'transport.pem',
  transportKey: 'transport.key',
  signingKey: 'signing.key',
  signingJwks: 'signing.jwks.json',
  ssa: 'ssa.jwt',
  caBundle: 'ca-bundle.pem',
  rootCa: 'root-ca.pem',
  issuingCa: 'issuing-ca.pem',
  manifest: 'manifest.json',
} as const

/** What `manifest.json` holds: every public fact about the kit, and where its files are. */
export interface StarterKitManifest {
  orgId: string
  orgName: string
  softwareId: string
  clientName: string
  roles: StarterKit['roles']
  redirectUris: string[]
  signingKid: string
  jwksEndpoint: string
  transportCertificate: { subjectDn: string; thumbprintS256: string; notAfter: string }
  /** The directory that issued the kit (`iss` of the SSA). */
  issuer: string
  addresses: SandboxAddresses & { discoveryUrl: string }
  files: typeof STARTER_KIT_FILES
  createdAt: string
}

/** The kit files already present in `dir` (none when the directory does not exist). */
export function existingKitFiles(dir: string): string[] {
  return Object.values(STARTER_KIT_FILES).filter((f) => existsSync(join(dir, f)))
}

/** The transport certificate's subject as an RFC 4514 string (`CN=…,OU=…,O=…,C=GB`), as `tls_client_auth_subject_dn` takes it. */
export function subjectDn(certPem: string): string {
  const fields = new X509Certificate(certPem).subject.split('\n').map((l) => l.split('=', 2) as [string, string])
  return fields
    .reverse()
    .map(([k, v]) => `${k}=${v}`)
    .join(',')
}

/**
 * Writes a starter kit into `dir` (created when missing, mode 0700). Never overwrites: when any kit
 * file is already there, it throws naming them, and each file is opened with `wx` as well, so keys
 * are never replaced.
 */
export function writeStarterKit(
  dir: string,
  kit: StarterKit,
  extra: { rootCaPem: string; issuingCaPem: string; issuer: string; addresses: SandboxAddresses },
): { dir: string; manifest: StarterKitManifest } {
  const target = resolve(dir)
  const present = existingKitFiles(target)
  if (present.length)
    throw new Error(
      `${target} already holds a starter kit (${present.join(', ')}); keys are never overwritten, so give an empty or new directory`,
    )
  mkdirSync(target, { recursive: true, mode: 0o700 })
  const cert = new X509Certificate(kit.transportCertPem)
  const manifest: StarterKitManifest = {
    orgId: kit.orgId,
    orgName: kit.orgName,
    softwareId: kit.softwareId,
    clientName: kit.clientName,
    roles: kit.roles,
    redirectUris: kit.redirectUris,
    signingKid: kit.signingKid,
    jwksEndpoint: kit.jwksEndpoint,
    transportCertificate: {
      subjectDn: subjectDn(kit.transportCertPem),
      thumbprintS256: createHash('sha256').update(cert.raw).digest('base64url'),
      notAfter: new Date(cert.validTo).toISOString(),
    },
    issuer: extra.issuer,
    addresses: { ...extra.addresses, discoveryUrl: `${extra.addresses.authUrl}/.well-known/openid-configuration` },
    files: STARTER_KIT_FILES,
    createdAt: new Date().toISOString(),
  }
  const files: Array<[string, string, number]> = [
    [STARTER_KIT_FILES.transportKey, kit.transportKeyPem, 0o600],
    [STARTER_KIT_FILES.signingKey, kit.signingKeyPem.trim() + '\n', 0o600],
    [STARTER_KIT_FILES.transportCert, kit.transportCertPem, 0o644],
    [STARTER_KIT_FILES.signingJwks, JSON.stringify(kit.jwks, null, 2) + '\n', 0o644],
    [STARTER_KIT_FILES.ssa, kit.ssa + '\n', 0o644],
    [STARTER_KIT_FILES.caBundle, kit.caBundlePem, 0o644],
    [STARTER_KIT_FILES.rootCa, extra.rootCaPem, 0o644],
    [STARTER_KIT_FILES.issuingCa, extra.issuingCaPem, 0o644],
    [STARTER_KIT_FILES.manifest, JSON.stringify(manifest, null, 2) + '\n', 0o644],
  ]
  for (const [name, text, mode] of files) writeFileSync(join(target, name), text, { mode, flag: 'wx' })
  return { dir: target, manifest }
}
