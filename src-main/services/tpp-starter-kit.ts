import { randomUUID, type KeyObject } from 'node:crypto'
import type { EnvironmentDto } from '../contract/environments.ts'
import { importIdentity } from '../certificates/import-identity.ts'
import { parsePrivateKey } from '../certificates/import-pem.ts'
import type { TppRecord } from './persistence/settings-schema.ts'
import type { TransportMaterial } from './tpp-keys.ts'

/** The local directory's starter kit, as its onboarding endpoint returns it. */
export interface StarterKitJson {
  orgId: string
  orgName: string
  softwareId: string
  clientName: string
  redirectUris: string[]
  ssa: string
  signingKid: string
  signingKeyPem: string
  transportCertPem: string
  transportKeyPem: string
  caBundlePem: string
}

/** Asks the local sandbox's directory for a starter kit (over HTTPS, logged as an exchange). */
export type StarterKitFetcher = (environment: EnvironmentDto, input: { clientName?: string }) => Promise<StarterKitJson>

/**
 * The identity a starter kit makes, before its keys are stored: organisation, software, SSA, redirect
 * URIs and the sandbox's root and issuing CAs (the first and second certificates of its CA bundle).
 */
export function starterKitRecord(kit: StarterKitJson, name: string | undefined, now: Date): TppRecord {
  const blocks = kit.caBundlePem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  return {
    id: randomUUID(),
    name: name?.trim() || kit.clientName,
    orgId: kit.orgId,
    softwareId: kit.softwareId,
    ssa: kit.ssa,
    redirectUris: kit.redirectUris,
    ...(blocks[0] ? { rootCaPem: blocks[0] + '\n' } : {}),
    ...(blocks[1] ? { issuingCaPem: blocks[1] + '\n' } : {}),
    createdAt: now.toISOString(),
  }
}

/** The starter kit's transport certificate with its key, and its signing key: read and checked. */
export async function starterKitKeys(
  kit: StarterKitJson,
): Promise<{ transport: TransportMaterial; signingKey: KeyObject }> {
  const transport = await importIdentity({
    certPem: kit.transportCertPem,
    keyPem: kit.transportKeyPem,
    source: "the starter kit's transport certificate",
  })
  return {
    transport: { leafPem: transport.leaf.toString('pem'), key: transport.privateKey },
    signingKey: parsePrivateKey(kit.signingKeyPem, undefined, "the starter kit's signing key"),
  }
}
