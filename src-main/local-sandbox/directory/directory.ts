import { X509Certificate } from 'node:crypto'
import { calculateJwkThumbprint, exportJWK, exportPKCS8, type JSONWebKeySet } from 'jose'
import type { SandboxContext } from '../context.ts'
import { rsaKeyPair } from '../../plumbing/rsa-key-pairs.ts'
import { DIRECTORY_ISSUER } from '../defaults.ts'
import { certificateIdentity, type PeerCertificate } from '../http/peer-certificate.ts'
import { loadOrCreateDirectoryKey, publicPart, type DirectoryKey } from './directory-key.ts'
import { directoryRoutes } from './directory-routes.ts'
import { newOrgId, newSoftwareId, validateOnboardInput } from './onboard-input.ts'
import {
  jwksEndpoints,
  signSoftwareStatement,
  softwareStatementClaims,
  verifySoftwareStatement,
} from './software-statement.ts'
import { FileBankDocuments, type BankDocuments } from '../store/bank-documents.ts'
import { TppStore } from './tpp-store.ts'
import type { Directory, SoftwareStatementRecord, StarterKit } from './types.ts'

export { DIRECTORY_ISSUER }

/** What the directory needs of the sandbox (a subset of SandboxContext, so the CLI can build one without servers). */
export type DirectoryContext = Pick<SandboxContext, 'addresses' | 'layout' | 'clock' | 'pki' | 'log'> & {
  /** Where the directory's key and TPPs live: the store's bank documents; default the data directory's files. */
  documents?: BankDocuments
}

export type OrgStatus = SoftwareStatementRecord['orgStatus']

/** The local directory, with the sandbox-only operations its admin endpoints use. */
export interface LocalDirectory extends Directory {
  /** Sets an organisation's status (all its software statements); returns how many were changed. */
  setOrgStatus(orgId: string, status: OrgStatus): Promise<number>
  /** Public JWKS of an organisation: the signing keys of all its software statements. */
  orgJwks(orgId: string): Promise<JSONWebKeySet | undefined>
  /** Every software statement in the directory (public records), oldest first. */
  list(): Promise<SoftwareStatementRecord[]>
  /**
   * Why a self-signed client certificate cannot stand for a transport certificate the directory issued;
   * undefined when its subject DN and public key match one (spec section 5: the sandbox accepts
   * self-signed certificates).
   */
  selfSignedProblem(peer: PeerCertificate, now?: Date): Promise<string | undefined>
}

/**
 * Matches a self-signed certificate to the transport certificates of the software its CN names (Open
 * Banking convention: CN = software id): subject DN and public key must both match one, and the
 * certificate must be within its validity. Undefined when it matches; else the reason in words.
 */
export function selfSignedTransportProblem(
  record: SoftwareStatementRecord | undefined,
  peer: PeerCertificate,
  now: Date = new Date(),
): string | undefined {
  if (!peer.softwareId)
    return 'its subject has no CN, which must be the software id of a TPP onboarded in the directory'
  if (!record) return `its CN "${peer.softwareId}" is no software statement of this sandbox's directory`
  if (record.orgStatus !== 'Active') return `the organisation ${record.orgId} is ${record.orgStatus} in the directory`
  const issued = record.transportCertificates
  if (!issued?.length)
    return `the directory holds no public key for software ${record.softwareId}'s transport certificate (it was onboarded before the directory kept them); use the CA-issued transport.pem of its starter kit`
  const sameSubject = issued.filter((c) => c.subjectDn === peer.certificateSubjectDn)
  if (!sameSubject.length)
    return `its subject ${peer.certificateSubjectDn} differs from the registered transport certificate's ${issued[0]!.subjectDn}; make it with the same subject`
  if (!sameSubject.some((c) => c.spkiSha256 === peer.spkiSha256))
    return `its public key is not the key of the registered transport certificate (subject ${peer.certificateSubjectDn}); make it with transport.key of the starter kit`
  const x = new X509Certificate(peer.pem)
  if (new Date(x.validFrom) > now || new Date(x.validTo) < now)
    return `it is valid from ${x.validFrom} to ${x.validTo}, not now`
  return undefined
}

/**
 * Onboards a TPP: a new organisation and software statement, its signing key and CA-issued transport
 * certificate, its record kept, and the SSA signed; returns the whole starter kit.
 */
async function onboardTpp(
  ctx: DirectoryContext,
  parts: { key: DirectoryKey; store: TppStore; directoryUrl: string },
  input: unknown,
): Promise<StarterKit> {
  const { key, store, directoryUrl } = parts
  const valid = validateOnboardInput(input)
  const orgId = newOrgId()
  const softwareId = newSoftwareId()
  const orgName = valid.orgName ?? `Sandbox TPP ${orgId.slice(-8)}`
  const clientName = valid.clientName ?? `OB Console client ${softwareId.slice(0, 6)}`

  // The TPP's two new keys (signing, and transport with its certificate) are made side by side, or were made
  // ahead by a command that knew it would onboard one.
  const [{ privateKey }, transport] = await Promise.all([
    rsaKeyPair('RSA-PSS'),
    ctx.pki.issueTransportCertificate({ orgId, orgName, softwareId }),
  ])
  const exported = publicPart(await exportJWK(privateKey))
  const signingKid = await calculateJwkThumbprint(exported)
  const jwks: JSONWebKeySet = { keys: [{ ...exported, kid: signingKid, use: 'sig', alg: 'PS256' }] }
  const transportIdentity = certificateIdentity(transport.certPem)

  const record: SoftwareStatementRecord = {
    orgId,
    orgName,
    orgStatus: 'Active',
    softwareId,
    clientName,
    roles: valid.roles,
    redirectUris: valid.redirectUris,
    jwksEndpoint: jwksEndpoints(directoryUrl, orgId, softwareId).software,
    jwks,
    transportCertificateThumbprints: [transportIdentity.thumbprint],
    transportCertificates: [transportIdentity],
    createdAt: ctx.clock.now().toISOString(),
  }
  await store.put(record)
  const ssa = await signSoftwareStatement(
    softwareStatementClaims(record, DIRECTORY_ISSUER, directoryUrl, ctx.clock.nowSeconds()),
    key,
  )
  ctx.log(`directory: onboarded ${clientName} (org ${orgId}, software ${softwareId}, roles ${valid.roles.join(',')})`)
  return {
    orgId,
    orgName,
    softwareId,
    clientName,
    roles: record.roles,
    redirectUris: record.redirectUris,
    ssa,
    jwksEndpoint: record.jwksEndpoint,
    jwks,
    signingKid,
    signingKeyPem: await exportPKCS8(privateKey),
    transportCertPem: transport.certPem,
    transportKeyPem: transport.keyPem,
    caBundlePem: ctx.pki.caBundlePem,
  }
}

/**
 * Creates the local directory, the sandbox's stand-in for the Open Banking directory: it onboards TPPs
 * (organisation, software statement, signing key, transport certificate, SSA), serves their JWKS
 * endpoints, and verifies the SSAs it signed. Its signing key and one JSON record per TPP are bank
 * documents (`directory/…`: the data directory's files, or a database store's rows); an unknown TPP is
 * looked up afresh, so one onboarded by another process or instance is known at once.
 *
 * @example
 *   const directory = await createDirectory({ addresses, layout, clock, pki, log })
 *   const kit = await directory.onboard({ roles: ['AISP'] })
 *   const claims = await directory.verifySoftwareStatement(kit.ssa)
 */
export async function createDirectory(ctx: DirectoryContext): Promise<LocalDirectory> {
  const documents = ctx.documents ?? new FileBankDocuments(ctx.layout.root)
  const key = await loadOrCreateDirectoryKey(documents)
  const store = new TppStore(documents)
  const directoryUrl = ctx.addresses.directoryUrl.replace(/\/+$/, '')

  const directory: LocalDirectory = {
    issuer: DIRECTORY_ISSUER,

    publicJwks: () => ({ keys: [key.publicJwk] }),

    async software(softwareId) {
      try {
        return await store.get(softwareId)
      } catch (err) {
        // A corrupt record reads as unknown software here (so no caller answers 500); the log names the file.
        ctx.log(`directory: ${(err as Error).message}`)
        return undefined
      }
    },

    verifySoftwareStatement: (ssa) =>
      verifySoftwareStatement(ssa, { key, issuer: DIRECTORY_ISSUER, directoryUrl, lookup: (id) => store.get(id) }),

    onboard: (input) => onboardTpp(ctx, { key, store, directoryUrl }, input),

    async setOrgStatus(orgId, status) {
      const records = await store.byOrg(orgId, ctx.log)
      for (const r of records) await store.put({ ...r, orgStatus: status })
      if (records.length) ctx.log(`directory: organisation ${orgId} is now ${status}`)
      return records.length
    },

    async orgJwks(orgId) {
      const records = await store.byOrg(orgId, ctx.log)
      if (records.length === 0) return undefined
      return { keys: records.flatMap((r) => r.jwks.keys) }
    },

    async selfSignedProblem(peer, now) {
      const record = peer.softwareId ? await directory.software(peer.softwareId) : undefined
      return selfSignedTransportProblem(record, peer, now)
    },

    list: async () => (await store.all(ctx.log)).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),

    routes: () =>
      directoryRoutes({
        directory,
        clock: ctx.clock,
        log: ctx.log,
        directoryUrl,
        pki: ctx.pki,
        addresses: ctx.addresses,
      }),
  }
  return directory
}
