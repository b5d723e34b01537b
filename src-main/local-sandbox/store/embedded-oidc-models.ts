import { join } from 'node:path'
import type { AdapterPayload } from 'oidc-provider'
import { JournaledMap } from './journaled-map.ts'
import {
  CLIENT_ARTIFACT_MODELS,
  wallSeconds,
  type ModelVersion,
  type OidcModelStore,
  type StoredModel,
} from './oidc-models.ts'

/** Models written to disk; every other model (codes, sessions, interactions, replay detection) lives in memory only. */
export const PERSISTED_MODELS = ['Client', 'Grant', 'AccessToken', 'ClientCredentials', 'RefreshToken'] as const

interface Entry {
  payload: AdapterPayload
  /** Wall-clock seconds; absent: never expires. */
  expiresAt?: number
}

const live = (entry: Entry, now = wallSeconds()) => entry.expiresAt === undefined || entry.expiresAt > now

const entryOf = (payload: AdapterPayload, expiresIn: number | undefined): Entry => ({
  payload,
  ...(expiresIn ? { expiresAt: wallSeconds() + expiresIn } : {}),
})

/** The entries of one model: on disk (snapshot and journal, see JournaledMap) or in memory only. */
class ModelEntries {
  readonly #entries: Map<string, Entry> | JournaledMap<Entry>

  constructor(path?: string) {
    this.#entries = path ? new JournaledMap<Entry>(path, { keep: (e) => live(e) }) : new Map()
  }

  get(id: string): Entry | undefined {
    const entry = this.#entries.get(id)
    if (entry && !live(entry)) {
      this.#forget(id)
      return undefined
    }
    return entry
  }

  set(id: string, entry: Entry): void {
    this.#entries.set(id, entry)
  }

  delete(ids: string[]): void {
    for (const id of ids) this.#entries.delete(id)
  }

  /** Ids of the live entries whose payload matches. */
  idsWhere(match: (payload: AdapterPayload) => boolean): string[] {
    const now = wallSeconds()
    return [...this.#all()].filter(([, e]) => live(e, now) && match(e.payload)).map(([id]) => id)
  }

  /** Forgets the expired entries; how many. */
  dropExpired(): number {
    const now = wallSeconds()
    const expired = [...this.#all()].filter(([, e]) => !live(e, now)).map(([id]) => id)
    for (const id of expired) this.#forget(id)
    return expired.length
  }

  #all(): ReadonlyMap<string, Entry> {
    return this.#entries instanceof JournaledMap ? this.#entries.entries : this.#entries
  }

  /** Drops an expired entry from memory (the next compaction leaves it out of the snapshot). */
  #forget(id: string): void {
    if (this.#entries instanceof JournaledMap) this.#entries.forget(id)
    else this.#entries.delete(id)
  }
}

/**
 * oidc-provider's models in the data directory, for one process: clients, grants, access tokens,
 * client-credentials tokens and refresh tokens in `auth/oidc/<Model>.json` (and its journal, see
 * JournaledMap) so they survive a restart; codes, sessions, interactions and replay detection in memory.
 * Expired entries are left out of the snapshots. Every method runs to its end without awaiting, so each
 * check-and-change (consume, insertOnce) is atomic in the one process. An entry's version is its stored
 * object: any write replaces it.
 */
export class EmbeddedOidcModels implements OidcModelStore {
  readonly #models = new Map<string, ModelEntries>()

  /** @param dir where the persisted models' files live (`auth/oidc`) */
  constructor(private readonly dir: string) {}

  #model(name: string): ModelEntries {
    let entries = this.#models.get(name)
    if (!entries) {
      const persisted = (PERSISTED_MODELS as readonly string[]).includes(name)
      entries = new ModelEntries(persisted ? join(this.dir, `${name}.json`) : undefined)
      this.#models.set(name, entries)
    }
    return entries
  }

  async upsert(model: string, id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    this.#model(model).set(id, entryOf(payload, expiresIn))
  }

  async find(model: string, id: string): Promise<StoredModel | undefined> {
    const entry = this.#model(model).get(id)
    return entry && { payload: entry.payload, version: entry }
  }

  async findBy(model: string, field: 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
    const entries = this.#model(model)
    const [id] = entries.idsWhere((p) => p[field] === value)
    return id === undefined ? undefined : entries.get(id)?.payload
  }

  async consume(model: string, id: string): Promise<boolean> {
    const entries = this.#model(model)
    const entry = entries.get(id)
    if (!entry || entry.payload.consumed !== undefined) return false
    entries.set(id, { ...entry, payload: { ...entry.payload, consumed: wallSeconds() } })
    return true
  }

  async insertOnce(model: string, id: string, payload: AdapterPayload, expiresIn: number): Promise<boolean> {
    const entries = this.#model(model)
    if (entries.get(id)) return false
    entries.set(id, entryOf(payload, expiresIn))
    return true
  }

  async destroy(model: string, id: string): Promise<void> {
    this.#model(model).delete([id])
  }

  async revokeByGrantId(model: string, grantId: string): Promise<void> {
    const entries = this.#model(model)
    entries.delete(entries.idsWhere((p) => p.grantId === grantId))
  }

  async destroyClientArtifacts(clientId: string): Promise<void> {
    for (const name of CLIENT_ARTIFACT_MODELS) {
      const entries = this.#model(name)
      entries.delete(entries.idsWhere((p) => p.clientId === clientId))
    }
  }

  async unchanged(entries: readonly ModelVersion[]): Promise<boolean> {
    return entries.every((e) => this.#model(e.model).get(e.id) === e.version)
  }

  async deleteExpired(): Promise<number> {
    let n = 0
    for (const entries of this.#models.values()) n += entries.dropExpired()
    return n
  }
}
