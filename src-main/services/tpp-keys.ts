import { randomUUID, type KeyObject } from 'node:crypto'
import type { IdentityMaterial } from '../certificates/import-identity.ts'
import { assertSupportedKey, parsePrivateKey } from '../certificates/import-pem.ts'
import { keyInfo } from '../certificates/key-info.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { AppError } from '../core/app-error.ts'
import type { TppRecord } from './persistence/settings-schema.ts'

/** What signing and mutual TLS need of a TPP identity. Main side only: it holds private keys. */
export interface TppMaterial {
  record: TppRecord
  transport?: { certPem: string; keyPem: string }
  signing?: { kid: string; key: KeyObject }
}

/** A transport certificate (with the rest of its chain, when it came with one) and its private key. */
export interface TransportMaterial {
  leafPem: string
  chainPem?: string
  key: KeyObject
}

/** The roles whose key an identity holds. */
export type KeyRole = 'transport' | 'signing'

/** An imported certificate and key as transport material: the leaf, the rest of its chain, the key. */
export function transportMaterial(m: IdentityMaterial): TransportMaterial {
  return {
    leafPem: m.leaf.toString('pem'),
    chainPem: m.chain.map((c) => c.toString('pem')).join('\n') || undefined,
    key: m.privateKey,
  }
}

/**
 * The private keys of TPP identities, encrypted in the secret store: a record points at its keys by
 * secret id. A key is replaced in this order, so a process killed at any point leaves the identity
 * readable with its old key or its new one: the new key is stored under a new id (`withTransport`,
 * `withSigning`), then the caller writes the record pointing at it (atomically), and only then is the old
 * key deleted (`dropReplaced`). A generated key waits here for its certificate (`holdPending`).
 */
export class TppKeys {
  /** Key material read from the secret store, per identity and the stored record it was read for (see `material`). */
  readonly #material = new Map<string, { record: TppRecord; stored: string; material: Promise<TppMaterial> }>()

  constructor(private readonly secrets: SecretStore) {}

  async #store(key: KeyObject): Promise<string> {
    const id = `tpp-key-${randomUUID()}`
    await this.secrets.put(id, key.export({ format: 'pem', type: 'pkcs8' }) as string)
    return id
  }

  /** Stores the transport key; the record to write, pointing at it. */
  async withTransport(r: TppRecord, material: TransportMaterial): Promise<TppRecord> {
    const keySecretId = await this.#store(material.key)
    return {
      ...r,
      transport: {
        certificatePem: material.leafPem,
        ...(material.chainPem ? { chainPem: material.chainPem } : {}),
        keySecretId,
        keyInfo: await keyInfo(material.key, keySecretId),
      },
    }
  }

  /** Stores the signing key; the record to write, pointing at it (the kid defaults to the key's JWK thumbprint). */
  async withSigning(
    r: TppRecord,
    key: KeyObject,
    kid: string | undefined,
    certificatePem?: string,
  ): Promise<TppRecord> {
    const keySecretId = await this.#store(key)
    const info = await keyInfo(key, keySecretId)
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

  /** Deletes the keys `before` held that `after` no longer points at (once `after` is written). */
  async dropReplaced(before: TppRecord, after: TppRecord): Promise<void> {
    const kept = new Set([after.transport?.keySecretId, after.signing?.keySecretId])
    for (const id of [before.transport?.keySecretId, before.signing?.keySecretId])
      if (id && !kept.has(id)) await this.secrets.delete(id)
  }

  /** Deletes every key of a removed identity. */
  async remove(r: TppRecord): Promise<void> {
    if (r.transport) await this.secrets.delete(r.transport.keySecretId)
    if (r.signing) await this.secrets.delete(r.signing.keySecretId)
    this.#material.delete(r.id)
  }

  #pendingId(tppId: string, role: KeyRole): string {
    return `pending-${role}-key-${tppId}`
  }

  /**
   * Keeps a generated private key (encrypted) until the directory issues its certificate from the CSR.
   * One pending key per identity and role (a new one replaces it).
   */
  async holdPending(tppId: string, role: KeyRole, keyPem: string): Promise<void> {
    assertSupportedKey(parsePrivateKey(keyPem, undefined, `the generated ${role} key`), `the generated ${role} key`)
    await this.secrets.put(this.#pendingId(tppId, role), keyPem)
  }

  /** The pending key's PEM, if one waits. */
  pending(tppId: string, role: KeyRole): Promise<string | undefined> {
    return this.secrets.get(this.#pendingId(tppId, role))
  }

  async dropPending(tppId: string, role: KeyRole): Promise<void> {
    await this.secrets.delete(this.#pendingId(tppId, role))
  }

  /**
   * Private key material for mutual TLS and signing. Never send it across the contract. Kept while the
   * identity's stored record is unchanged (a new key is stored under a new secret id, so the record
   * changes), so a flow does not decrypt and parse the keys again at every step that needs them.
   */
  material(record: TppRecord): Promise<TppMaterial> {
    const kept = this.#material.get(record.id)
    // The store hands out one frozen record until the identity changes: compared as text only when another.
    if (kept?.record === record && Object.isFrozen(record)) return kept.material
    const stored = JSON.stringify(record)
    if (kept?.stored === stored) return kept.material
    const material = this.#read(record)
    this.#material.set(record.id, { record, stored, material })
    material.catch(() => {
      if (this.#material.get(record.id)?.material === material) this.#material.delete(record.id)
    })
    return material
  }

  async #read(record: TppRecord): Promise<TppMaterial> {
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
