import { randomUUID } from 'node:crypto'
import type { CheckResult } from '../contract/checks.ts'
import type { TppIdentityDto, TppRole } from '../contract/environments.ts'
import { parseCertificates, parsePrivateKey, assertSupportedKey } from '../certificates/import-pem.ts'
import { importIdentity } from '../certificates/import-identity.ts'
import { assertKeyMatchesCertificate } from '../certificates/key-match.ts'
import { checkTppPrerequisites } from '../certificates/prerequisites.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { SettingsStore } from './persistence/settings-store.ts'
import type { TppRecord } from './persistence/settings-schema.ts'
import { tppIdentityDto } from './tpp-identity-dto.ts'
import { TppKeys, transportMaterial, type KeyRole, type TppMaterial } from './tpp-keys.ts'
import { starterKitKeys, starterKitRecord, type StarterKitFetcher } from './tpp-starter-kit.ts'

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
 * into the secret store (`TppKeys`) and only `material()` (main side) reads them back.
 */
export class TppsService {
  readonly #keys: TppKeys

  constructor(
    private readonly store: SettingsStore,
    secrets: SecretStore,
    private readonly environments: EnvironmentsService,
    private readonly fetchKit: StarterKitFetcher,
    private readonly clock: Clock,
  ) {
    this.#keys = new TppKeys(secrets)
  }

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
    return tppIdentityDto(r, this.clock.now())
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
    await this.#keys.remove(r)
    this.store.set(
      'tpps',
      this.#records().filter((t) => t.id !== id),
    )
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
        const m = await importIdentity({
          certPem: input.certificatePem,
          keyPem: input.keyPem,
          passphrase: input.passphrase,
          source: 'the transport certificate',
        })
        r = await this.#keys.withTransport(r, transportMaterial(m))
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
        r = await this.#keys.withSigning(r, key, input.kid, certPem)
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
    return this.#replace(before, r)
  }

  /** Writes the record with its new keys, then deletes the keys it replaced (see `TppKeys`). */
  async #replace(before: TppRecord, after: TppRecord): Promise<TppIdentityDto> {
    const dto = this.#put(after)
    await this.#keys.dropReplaced(before, after)
    return dto
  }

  async importPkcs12(input: {
    tppId: string
    role: 'transport' | 'signing'
    pkcs12Base64: string
    passphrase: string
    kid?: string
  }): Promise<TppIdentityDto> {
    const before = this.record(input.tppId)
    const m = await importIdentity({
      pkcs12: Buffer.from(input.pkcs12Base64 ?? '', 'base64'),
      passphrase: input.passphrase,
      source: 'the PKCS#12 file',
    })
    const r =
      input.role === 'transport'
        ? await this.#keys.withTransport(before, transportMaterial(m))
        : await this.#keys.withSigning(before, m.privateKey, input.kid, m.leaf.toString('pem'))
    return this.#replace(before, r)
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

  /**
   * Keeps a generated private key (encrypted) until the directory issues its certificate from the CSR;
   * `attachCertificate` pairs them. One pending key per identity and role (a new one replaces it).
   */
  async holdPendingKey(tppId: string, role: KeyRole, keyPem: string): Promise<void> {
    this.record(tppId)
    await this.#keys.holdPending(tppId, role, keyPem)
  }

  async hasPendingKey(tppId: string, role: KeyRole): Promise<boolean> {
    return (await this.#keys.pending(tppId, role)) !== undefined
  }

  /** The certificate the directory issued for a pending key: both become the identity's transport (or signing) material. */
  async attachCertificate(tppId: string, role: KeyRole, certificatePem: string, kid?: string): Promise<TppIdentityDto> {
    const keyPem = await this.#keys.pending(tppId, role)
    if (!keyPem)
      throw invalid(
        `"${this.record(tppId).name}" has no generated ${role} key waiting for a certificate.`,
        'Only a key made with a CSR (ob-console cert generate) waits for its certificate.',
        'Generate a key and CSR first, or import the certificate with its key.',
      )
    const dto = await this.importPem({ tppId, role, certificatePem, keyPem, ...(kid ? { kid } : {}) })
    await this.#keys.dropPending(tppId, role)
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
    const keys = await starterKitKeys(kit)
    let r = starterKitRecord(kit, input.name, this.clock.now())
    r = await this.#keys.withTransport(r, keys.transport)
    r = await this.#keys.withSigning(r, keys.signingKey, kit.signingKid)
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
   * identity's stored record is unchanged, so a flow does not decrypt and parse the keys again at every step.
   */
  material(tppId: string): Promise<TppMaterial> {
    return this.#keys.material(this.record(tppId))
  }
}
