import { randomUUID, type KeyObject } from 'node:crypto'
import type { CheckResult } from '../contract/checks.ts'
import type { EnvironmentDto, TppIdentityDto, TppRole } from '../contract/environments.ts'
import { parseCertificates, parsePrivateKey, assertSupportedKey } from '../certificates/import-pem.ts'
import { importIdentity } from '../certificates/import-identity.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { keyInfo } from '../certificates/key-info.ts'
import { assertKeyMatchesCertificate } from '../certificates/key-match.ts'
import { checkTppPrerequisites } from '../certificates/prerequisites.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { SettingsStore } from './persistence/settings-store.ts'
import type { TppRecord } from './persistence/settings-schema.ts'

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

/** What signing and mutual TLS need of a TPP identity. Main side only: it holds private keys. */
export interface TppMaterial {
  record: TppRecord
  transport?: { certPem: string; keyPem: string }
  signing?: { kid: string; key: KeyObject }
}

const notFound = (id: string) =>
  new AppError('NOT_FOUND', {
    what: `No TPP identity "${id}".`,
    cause: 'It was removed, or the id is misspelt.',
    fix: 'Pick one from the list, or create it.',
  })

function invalid(what: string, cause: string, fix: string): AppError {
  return new AppError('INVALID_INPUT', { what, cause, fix })
}

/**
 * TPP identities: organisation, software statement, transport certificate and key, signing key and kid,
 * the ecosystem CAs, redirect URIs. Public parts live in the settings store; private keys go encrypted
 * into the secret store and only `material()` (main side) reads them back.
 */
export class TppsService {
  /** Key material read from the secret store, per identity and the stored record it was read for (see `material`). */
  readonly #material = new Map<string, { stored: string; material: Promise<TppMaterial> }>()

  constructor(
    private readonly store: SettingsStore,
    private readonly secrets: SecretStore,
    private readonly environments: EnvironmentsService,
    private readonly fetchKit: StarterKitFetcher,
    private readonly clock: Clock,
  ) {}

  #records(): TppRecord[] {
    return this.store.get('tpps')
  }

  record(id: string): TppRecord {
    const r = this.#records().find((t) => t.id === id)
    if (!r) throw notFound(id)
    return r
  }

  #put(record: TppRecord): TppIdentityDto {
    const all = this.#records()
    this.store.set(
      'tpps',
      all.some((t) => t.id === record.id) ? all.map((t) => (t.id === record.id ? record : t)) : [...all, record],
    )
    return this.toDto(record)
  }

  toDto(r: TppRecord): TppIdentityDto {
    const now = this.clock.now()
    const inspect = (pem: string | undefined) => (pem ? inspectCertificate(parseCertificates(pem)[0]!, now) : undefined)
    let softwareStatement
    if (r.ssa) {
      try {
        softwareStatement = parseSoftwareStatement(r.ssa).statement
      } catch {
        softwareStatement = undefined
      }
    }
    return {
      id: r.id,
      name: r.name,
      ...(r.orgId ? { orgId: r.orgId } : {}),
      ...(r.softwareId ? { softwareId: r.softwareId } : {}),
      ...(r.ssa ? { ssa: r.ssa, softwareStatement } : {}),
      ...(r.transport
        ? { transport: { key: r.transport.keyInfo, certificate: inspect(r.transport.certificatePem) } }
        : {}),
      ...(r.signing
        ? {
            signing: {
              kid: r.signing.kid,
              key: r.signing.keyInfo,
              ...(r.signing.certificatePem ? { certificate: inspect(r.signing.certificatePem) } : {}),
            },
          }
        : {}),
      ...(r.rootCaPem ? { rootCa: inspect(r.rootCaPem) } : {}),
      ...(r.issuingCaPem ? { issuingCa: inspect(r.issuingCaPem) } : {}),
      redirectUris: r.redirectUris,
      createdAt: r.createdAt,
    }
  }

  list(): TppIdentityDto[] {
    return this.#records().map((r) => this.toDto(r))
  }

  save(input: { id?: string; name: string; orgId?: string; redirectUris: string[] }): TppIdentityDto {
    if (!input.name?.trim())
      throw invalid(
        'The TPP identity has no name.',
        'A name tells identities apart.',
        'Name it after the software, e.g. "Budget app (sandbox)".',
      )
    for (const uri of input.redirectUris ?? []) {
      try {
        new URL(uri)
      } catch {
        throw invalid(
          `The redirect URI "${uri}" is not a URL.`,
          'Redirect URIs are absolute URLs.',
          'Enter it as registered in the directory, e.g. https://app.example/callback.',
        )
      }
    }
    const existing = input.id ? this.record(input.id) : undefined
    const record: TppRecord = {
      ...(existing ?? { id: randomUUID(), createdAt: this.clock.now().toISOString() }),
      name: input.name.trim(),
      redirectUris: input.redirectUris ?? [],
      ...(input.orgId ? { orgId: input.orgId } : {}),
    }
    return this.#put(record)
  }

  async remove(id: string): Promise<void> {
    const r = this.record(id)
    if (r.transport) await this.secrets.delete(r.transport.keySecretId)
    if (r.signing) await this.secrets.delete(r.signing.keySecretId)
    this.store.set(
      'tpps',
      this.#records().filter((t) => t.id !== id),
    )
    this.#material.delete(id)
  }

  async #storeKey(key: KeyObject): Promise<string> {
    const id = `tpp-key-${randomUUID()}`
    await this.secrets.put(id, key.export({ format: 'pem', type: 'pkcs8' }) as string)
    return id
  }

  /**
   * A key is replaced in this order, so a process killed at any point leaves the identity readable with its
   * old key or its new one: the new key is stored under a new id, then the record pointing at it is
   * written (atomically), and only then is the old key deleted (`#dropReplacedKeys`).
   */
  async #setTransport(
    r: TppRecord,
    material: { leafPem: string; chainPem?: string; key: KeyObject },
  ): Promise<TppRecord> {
    const keySecretId = await this.#storeKey(material.key)
    return {
      ...r,
      transport: {
        certificatePem: material.leafPem,
        ...(material.chainPem ? { chainPem: material.chainPem } : {}),
        keySecretId,
        keyInfo: keyInfo(material.key, keySecretId),
      },
    }
  }

  async #setSigning(
    r: TppRecord,
    key: KeyObject,
    kid: string | undefined,
    certificatePem?: string,
  ): Promise<TppRecord> {
    const keySecretId = await this.#storeKey(key)
    const info = keyInfo(key, keySecretId)
    return {
      ...r,
      signing: {
        kid: kid?.trim() || info.jwkThumbprint,
        keySecretId,
        keyInfo: info,
        ...(certificatePem ? { certificatePem } : {}),
      },
    }
  }

  /** Imports PEM material for one role. Transport: certificate and key; signing: key (+ certificate); CAs: certificate. */
  async importPem(input: {
    tppId: string
    role: TppRole
    certificatePem?: string
    keyPem?: string
    passphrase?: string
    kid?: string
  }): Promise<TppIdentityDto> {
    const before = this.record(input.tppId)
    let r = before
    switch (input.role) {
      case 'transport': {
        const m = importIdentity({
          certPem: input.certificatePem,
          keyPem: input.keyPem,
          passphrase: input.passphrase,
          source: 'the transport certificate',
        })
        r = await this.#setTransport(r, {
          leafPem: m.leaf.toString('pem'),
          chainPem: m.chain.map((c) => c.toString('pem')).join('\n') || undefined,
          key: m.privateKey,
        })
        break
      }
      case 'signing': {
        if (!input.keyPem)
          throw invalid(
            'Importing the signing key failed.',
            'No private key was given.',
            "Give the PEM private key whose public JWK is on the software statement's JWKS.",
          )
        const key = assertSupportedKey(
          parsePrivateKey(input.keyPem, input.passphrase, 'the signing key'),
          'the signing key',
        )
        let certPem: string | undefined
        if (input.certificatePem) {
          const cert = parseCertificates(input.certificatePem, 'the signing certificate')[0]!
          assertKeyMatchesCertificate(key, cert, 'the signing key')
          certPem = cert.toString('pem')
        }
        r = await this.#setSigning(r, key, input.kid, certPem)
        break
      }
      case 'rootCa':
      case 'issuingCa': {
        if (!input.certificatePem)
          throw invalid(
            `Importing the ${input.role === 'rootCa' ? 'root' : 'issuing'} CA failed.`,
            'No certificate was given.',
            'Give the CA certificate as PEM.',
          )
        const cert = parseCertificates(input.certificatePem, 'the CA certificate')[0]!
        r = { ...r, [input.role === 'rootCa' ? 'rootCaPem' : 'issuingCaPem']: cert.toString('pem') }
        break
      }
      default:
        throw invalid(
          `Unknown role "${String(input.role)}".`,
          'Roles are transport, signing, rootCa and issuingCa.',
          'Pick one of them.',
        )
    }
    const dto = this.#put(r)
    await this.#dropReplacedKeys(before, r)
    return dto
  }

  /** Deletes the keys `before` held that `after` no longer points at (once `after` is written). */
  async #dropReplacedKeys(before: TppRecord, after: TppRecord): Promise<void> {
    const kept = new Set([after.transport?.keySecretId, after.signing?.keySecretId])
    for (const id of [before.transport?.keySecretId, before.signing?.keySecretId])
      if (id && !kept.has(id)) await this.secrets.delete(id)
  }

  async importPkcs12(input: {
    tppId: string
    role: 'transport' | 'signing'
    pkcs12Base64: string
    passphrase: string
    kid?: string
  }): Promise<TppIdentityDto> {
    const before = this.record(input.tppId)
    const m = importIdentity({
      pkcs12: Buffer.from(input.pkcs12Base64 ?? '', 'base64'),
      passphrase: input.passphrase,
      source: 'the PKCS#12 file',
    })
    const r =
      input.role === 'transport'
        ? await this.#setTransport(before, {
            leafPem: m.leaf.toString('pem'),
            chainPem: m.chain.map((c) => c.toString('pem')).join('\n') || undefined,
            key: m.privateKey,
          })
        : await this.#setSigning(before, m.privateKey, input.kid, m.leaf.toString('pem'))
    const dto = this.#put(r)
    await this.#dropReplacedKeys(before, r)
    return dto
  }

  importSoftwareStatement(input: { tppId: string; ssa: string }): TppIdentityDto {
    const r = this.record(input.tppId)
    const { statement } = parseSoftwareStatement(input.ssa.trim())
    return this.#put({
      ...r,
      ssa: input.ssa.trim(),
      ...(statement.orgId ? { orgId: statement.orgId } : {}),
      ...(statement.softwareId ? { softwareId: statement.softwareId } : {}),
      redirectUris: r.redirectUris.length ? r.redirectUris : statement.redirectUris,
    })
  }

  #pendingId(tppId: string, role: 'transport' | 'signing'): string {
    return `pending-${role}-key-${tppId}`
  }

  /**
   * Keeps a generated private key (encrypted) until the directory issues its certificate from the CSR;
   * `attachCertificate` pairs them. One pending key per identity and role (a new one replaces it).
   */
  async holdPendingKey(tppId: string, role: 'transport' | 'signing', keyPem: string): Promise<void> {
    this.record(tppId)
    assertSupportedKey(parsePrivateKey(keyPem, undefined, `the generated ${role} key`), `the generated ${role} key`)
    await this.secrets.put(this.#pendingId(tppId, role), keyPem)
  }

  async hasPendingKey(tppId: string, role: 'transport' | 'signing'): Promise<boolean> {
    return (await this.secrets.get(this.#pendingId(tppId, role))) !== undefined
  }

  /** The certificate the directory issued for a pending key: both become the identity's transport (or signing) material. */
  async attachCertificate(
    tppId: string,
    role: 'transport' | 'signing',
    certificatePem: string,
    kid?: string,
  ): Promise<TppIdentityDto> {
    const keyPem = await this.secrets.get(this.#pendingId(tppId, role))
    if (!keyPem)
      throw invalid(
        `"${this.record(tppId).name}" has no generated ${role} key waiting for a certificate.`,
        'Only a key made with a CSR (ob-console cert generate) waits for its certificate.',
        'Generate a key and CSR first, or import the certificate with its key.',
      )
    const dto = await this.importPem({ tppId, role, certificatePem, keyPem, ...(kid ? { kid } : {}) })
    await this.secrets.delete(this.#pendingId(tppId, role))
    return dto
  }

  /** The local sandbox only: onboards a new TPP in its directory and stores the whole starter kit as an identity. */
  async onboardLocal(input: { environmentId: string; name?: string }): Promise<TppIdentityDto> {
    const env = this.environments.get(input.environmentId)
    if (env.kind !== 'local-sandbox')
      throw invalid(
        'One-action onboarding exists for the local sandbox only.',
        `"${env.name}" is a ${env.kind}; its directory is the bank's.`,
        'Import your own certificates, keys and software statement instead.',
      )
    const kit = await this.fetchKit(env, { clientName: input.name })
    const blocks = kit.caBundlePem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
    let r: TppRecord = {
      id: randomUUID(),
      name: input.name?.trim() || kit.clientName,
      orgId: kit.orgId,
      softwareId: kit.softwareId,
      ssa: kit.ssa,
      redirectUris: kit.redirectUris,
      ...(blocks[0] ? { rootCaPem: blocks[0] + '\n' } : {}),
      ...(blocks[1] ? { issuingCaPem: blocks[1] + '\n' } : {}),
      createdAt: this.clock.now().toISOString(),
    }
    const transport = importIdentity({
      certPem: kit.transportCertPem,
      keyPem: kit.transportKeyPem,
      source: "the starter kit's transport certificate",
    })
    r = await this.#setTransport(r, { leafPem: transport.leaf.toString('pem'), key: transport.privateKey })
    r = await this.#setSigning(
      r,
      parsePrivateKey(kit.signingKeyPem, undefined, "the starter kit's signing key"),
      kit.signingKid,
    )
    const dto = this.#put(r)
    this.environments.save({ ...env, tppId: r.id })
    return dto
  }

  async checkPrerequisites(tppId: string): Promise<CheckResult[]> {
    const m = await this.material(tppId)
    const r = m.record
    const cas = [r.rootCaPem, r.issuingCaPem].filter((p): p is string => !!p).flatMap((p) => parseCertificates(p))
    const { checks } = checkTppPrerequisites({
      transportCertificate: r.transport ? parseCertificates(r.transport.certificatePem)[0] : undefined,
      transportKey: m.transport ? parsePrivateKey(m.transport.keyPem) : undefined,
      softwareStatement: r.ssa,
      caCertificates: cas,
      // Only an identity used with sandboxes alone may hold a self-signed transport certificate.
      selfSignedTransportAllowed: this.#sandboxOnly(tppId),
      now: this.clock.now(),
    })
    const redirect: CheckResult = {
      name: 'Redirect URIs of the identity',
      pass: r.redirectUris.length > 0,
      expected: 'at least one',
      actual: String(r.redirectUris.length),
      hint: 'Add the redirect URIs registered on the software statement.',
    }
    const signing: CheckResult = {
      name: 'Signing key and kid',
      pass: !!r.signing,
      expected: "a signing key with the kid on the software statement's JWKS",
      actual: r.signing ? `kid ${r.signing.kid}` : 'none',
      hint: 'Import the signing key (PEM or PKCS#12) and set its kid.',
    }
    return [...checks, redirect, signing]
  }

  /** True when the identity is the TPP of at least one environment, and every such environment is a sandbox. */
  #sandboxOnly(tppId: string): boolean {
    const kinds = this.environments
      .list()
      .filter((e) => e.tppId === tppId)
      .map((e) => e.kind)
    return kinds.length > 0 && kinds.every((k) => k !== 'production')
  }

  /**
   * Private key material for mutual TLS and signing. Never send it across the contract. Kept while the
   * identity's stored record is unchanged (a new key is stored under a new secret id, so the record
   * changes), so a flow does not decrypt and parse the keys again at every step that needs them.
   */
  material(tppId: string): Promise<TppMaterial> {
    const record = this.record(tppId)
    const stored = JSON.stringify(record)
    const kept = this.#material.get(tppId)
    if (kept?.stored === stored) return kept.material
    const material = this.#readMaterial(record)
    this.#material.set(tppId, { stored, material })
    material.catch(() => {
      if (this.#material.get(tppId)?.material === material) this.#material.delete(tppId)
    })
    return material
  }

  async #readMaterial(record: TppRecord): Promise<TppMaterial> {
    const read = async (id: string, what: string) => {
      const pem = await this.secrets.get(id)
      if (!pem)
        throw new AppError('NOT_FOUND', {
          what: `The ${what} of "${record.name}" is missing from the secret store.`,
          cause: 'The secrets directory was cleared or copied from elsewhere.',
          fix: `Import the ${what} again.`,
        })
      return pem
    }
    return {
      record,
      ...(record.transport
        ? {
            transport: {
              certPem:
                record.transport.certificatePem + (record.transport.chainPem ? `\n${record.transport.chainPem}` : ''),
              keyPem: await read(record.transport.keySecretId, 'transport key'),
            },
          }
        : {}),
      ...(record.signing
        ? {
            signing: {
              kid: record.signing.kid,
              key: parsePrivateKey(
                await read(record.signing.keySecretId, 'signing key'),
                undefined,
                'the stored signing key',
              ),
            },
          }
        : {}),
    }
  }
}
