import { randomUUID, type KeyObject } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { IdentityDto } from '../contract/certificates.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { importIdentity, type IdentityInput } from './import-identity.ts'
import { parseCertificates, parsePrivateKey } from './import-pem.ts'
import { inspectCertificate } from './inspect.ts'
import { keyInfo } from './key-info.ts'
import type { SecretStore } from './secret-store.ts'

/** The public part of a stored identity (the key is in the SecretStore under `identity-<id>`). */
interface IdentityRecord {
  id: string
  label: string
  certPem: string
  chainPem: string[]
  /** Public facts of the key (computed at import, so listing never decrypts keys). */
  key: IdentityDto['key']
  createdAt: string
}

const secretId = (id: string) => `identity-${id}`

/**
 * Stored identities (certificate + private key). Certificates and labels go to a JSON file; private
 * keys go to the SecretStore, encrypted. Only `privateKey()` and `tlsMaterial()` hand key material out,
 * to main-side code (signing, HTTP agents); the DTOs carry key ids, thumbprints and public JWKs.
 *
 * @example const vault = new IdentityVault({ file: join(layout.store, 'identities.json'), secrets, clock })
 *          const identity = await vault.import({ label: 'Transport', certPem, keyPem })
 */
export class IdentityVault {
  private readonly file: string
  private readonly secrets: SecretStore
  private readonly clock: Clock

  constructor(options: { file: string; secrets: SecretStore; clock: Clock }) {
    this.file = options.file
    this.secrets = options.secrets
    this.clock = options.clock
  }

  private read(): IdentityRecord[] {
    if (!existsSync(this.file)) return []
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { identities?: IdentityRecord[] }
      return parsed.identities ?? []
    } catch (err) {
      throw new AppError('STORE_ERROR', { what: `Reading ${this.file} failed`, cause: `it is not valid JSON (${(err as Error).message})`, fix: 'restore it from a backup, or delete it and import the identities again', source: err })
    }
  }

  private write(records: IdentityRecord[]): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 })
    const tmp = `${this.file}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify({ identities: records }, null, 2), { mode: 0o600 })
    if (process.platform !== 'win32') chmodSync(tmp, 0o600)
    renameSync(tmp, this.file)
  }

  private toDto(record: IdentityRecord): IdentityDto {
    const now = this.clock.now()
    const [leaf] = parseCertificates(record.certPem)
    const chain = record.chainPem.map((pem) => parseCertificates(pem)[0]!)
    return { id: record.id, label: record.label, certificate: inspectCertificate(leaf!, now), chain: chain.map((c) => inspectCertificate(c, now)), key: record.key, createdAt: record.createdAt }
  }

  private find(id: string): IdentityRecord {
    const record = this.read().find((r) => r.id === id)
    if (!record) throw new AppError('NOT_FOUND', { what: `Finding the identity ${id} failed`, cause: 'no stored identity has this id (it may have been removed)', fix: 'list the identities and pick one, or import the certificate again' })
    return record
  }

  /** Imports a certificate and key (PEM or PKCS#12); the key is encrypted into the SecretStore. */
  async import(input: IdentityInput & { label: string }): Promise<IdentityDto> {
    const material = importIdentity(input)
    const id = randomUUID()
    const record: IdentityRecord = {
      id,
      label: input.label.trim() || 'Unnamed identity',
      certPem: material.leaf.toString('pem').trim() + '\n',
      chainPem: material.chain.map((c) => c.toString('pem').trim() + '\n'),
      key: keyInfo(material.privateKey, secretId(id)),
      createdAt: this.clock.now().toISOString(),
    }
    await this.secrets.put(secretId(record.id), material.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string)
    this.write([...this.read(), record])
    return this.toDto(record)
  }

  list(): IdentityDto[] {
    return this.read().map((r) => this.toDto(r))
  }

  get(id: string): IdentityDto {
    return this.toDto(this.find(id))
  }

  /** Removes the identity and its key; false when there was none. */
  async remove(id: string): Promise<boolean> {
    const records = this.read()
    const kept = records.filter((r) => r.id !== id)
    if (kept.length === records.length) return false
    this.write(kept)
    await this.secrets.delete(secretId(id))
    return true
  }

  /** The private key, for main-side signing. Never send it across the contract. */
  async privateKey(id: string): Promise<KeyObject> {
    this.find(id)
    const pem = await this.secrets.get(secretId(id))
    if (!pem) throw new AppError('NOT_FOUND', { what: `Loading the key of identity ${id} failed`, cause: 'its private key is missing from the secret store', fix: 'import the certificate and key again' })
    return parsePrivateKey(pem, undefined, `the stored key of identity ${id}`)
  }

  /** Certificate chain and key as PEM for a mutual-TLS agent (main side only). */
  async tlsMaterial(id: string): Promise<{ certPem: string; keyPem: string }> {
    const record = this.find(id)
    const key = await this.privateKey(id)
    return { certPem: [record.certPem, ...record.chainPem].join(''), keyPem: key.export({ format: 'pem', type: 'pkcs8' }) as string }
  }
}
