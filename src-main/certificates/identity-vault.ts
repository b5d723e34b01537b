import { randomUUID, type KeyObject } from 'node:crypto'
import type { IdentityDto } from '../contract/certificates.ts'
import { AppError } from '../core/app-error.ts'
import { backupPath, readFileWithBackup, writeFileAtomic } from '../plumbing/atomic-file.ts'
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

  /** The stored records; from the backup (the version before the last write) when the file is unreadable. */
  private read(): IdentityRecord[] {
    try {
      return (
        readFileWithBackup(this.file, (bytes) => {
          const parsed = JSON.parse(bytes.toString('utf8')) as { identities?: unknown }
          if (
            parsed === null ||
            typeof parsed !== 'object' ||
            (parsed.identities !== undefined && !Array.isArray(parsed.identities))
          )
            throw new Error('it has no "identities" list')
          return (parsed.identities ?? []) as IdentityRecord[]
        })?.value ?? []
      )
    } catch (err) {
      throw new AppError('STORE_ERROR', {
        what: `Reading ${this.file} failed`,
        cause: `neither it nor its backup ${backupPath(this.file)} can be read (${(err as Error).message})`,
        fix: 'restore it from a backup of the data directory, or move it aside and import the identities again',
        source: err,
      })
    }
  }

  /** Atomic: temporary file, fsync, rename; the previous version kept as the backup. */
  private write(records: IdentityRecord[]): void {
    try {
      writeFileAtomic(this.file, JSON.stringify({ identities: records }, null, 2), { mode: 0o600 })
    } catch (err) {
      throw new AppError('STORE_ERROR', {
        what: `Writing ${this.file} failed`,
        cause: `the file system refused: ${(err as Error).message}`,
        fix: 'check the owner and permissions of the console data directory and the free disk space',
        source: err,
      })
    }
  }

  private toDto(record: IdentityRecord): IdentityDto {
    const now = this.clock.now()
    const [leaf] = parseCertificates(record.certPem)
    const chain = record.chainPem.map((pem) => parseCertificates(pem)[0]!)
    return {
      id: record.id,
      label: record.label,
      certificate: inspectCertificate(leaf!, now),
      chain: chain.map((c) => inspectCertificate(c, now)),
      key: record.key,
      createdAt: record.createdAt,
    }
  }

  private find(id: string): IdentityRecord {
    const record = this.read().find((r) => r.id === id)
    if (!record)
      throw new AppError('NOT_FOUND', {
        what: `Finding the identity ${id} failed`,
        cause: 'no stored identity has this id (it may have been removed)',
        fix: 'list the identities and pick one, or import the certificate again',
      })
    return record
  }

  /** Imports a certificate and key (PEM or PKCS#12); the key is encrypted into the SecretStore. */
  async import(input: IdentityInput & { label: string }): Promise<IdentityDto> {
    const material = await importIdentity(input)
    const id = randomUUID()
    const record: IdentityRecord = {
      id,
      label: input.label.trim() || 'Unnamed identity',
      certPem: material.leaf.toString('pem').trim() + '\n',
      chainPem: material.chain.map((c) => c.toString('pem').trim() + '\n'),
      key: await keyInfo(material.privateKey, secretId(id)),
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
    if (!pem)
      throw new AppError('NOT_FOUND', {
        what: `Loading the key of identity ${id} failed`,
        cause: 'its private key is missing from the secret store',
        fix: 'import the certificate and key again',
      })
    return parsePrivateKey(pem, undefined, `the stored key of identity ${id}`)
  }

  /** Certificate chain and key as PEM for a mutual-TLS agent (main side only). */
  async tlsMaterial(id: string): Promise<{ certPem: string; keyPem: string }> {
    const record = this.find(id)
    const key = await this.privateKey(id)
    return {
      certPem: [record.certPem, ...record.chainPem].join(''),
      keyPem: key.export({ format: 'pem', type: 'pkcs8' }) as string,
    }
  }
}
