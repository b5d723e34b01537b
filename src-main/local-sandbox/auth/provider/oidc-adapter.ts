import { join } from 'node:path'
import type { Adapter, AdapterPayload } from 'oidc-provider'
import { JournaledMap } from '../../store/journaled-map.ts'

/**
 * Storage of oidc-provider's models. Clients, grants, access tokens, client-credentials tokens and refresh
 * tokens are kept in `auth/oidc/<Model>.json` (and its journal, `<Model>.journal.jsonl`: see JournaledMap)
 * so they survive a restart; the short-lived models (authorisation codes, sessions, interactions, replay
 * detection) stay in memory and are lost on restart. Expired entries are left out of the snapshot.
 *
 * Expiry follows oidc-provider, which counts in wall-clock seconds (not the sandbox clock).
 */

/** Models written to disk; every other model lives in memory only. */
export const PERSISTED_MODELS = ['Client', 'Grant', 'AccessToken', 'ClientCredentials', 'RefreshToken'] as const

interface Entry {
  payload: AdapterPayload
  /** Wall-clock seconds; absent: never expires. */
  expiresAt?: number
}

const wallSeconds = () => Math.floor(Date.now() / 1000)

const live = (entry: Entry, now = wallSeconds()) => entry.expiresAt === undefined || entry.expiresAt > now

/** The entries of one model: on disk (snapshot and journal, see JournaledMap) or in memory only. */
class ModelStore {
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
    const entries = this.#entries instanceof JournaledMap ? this.#entries.entries : this.#entries
    return [...entries].filter(([, e]) => live(e, now) && match(e.payload)).map(([id]) => id)
  }

  /** Drops an expired entry from memory (the next compaction leaves it out of the snapshot). */
  #forget(id: string): void {
    if (this.#entries instanceof JournaledMap) this.#entries.forget(id)
    else this.#entries.delete(id)
  }
}

/** One store per model name; hands oidc-provider an Adapter for each. */
export class SandboxOidcStorage {
  readonly #models = new Map<string, ModelStore>()

  /**
   * @param dir where the persisted models' files live
   * @param onFind per model name, a function applied to a payload as it is read (e.g. fresh client keys)
   */
  constructor(
    private readonly dir: string,
    private readonly onFind: Record<string, (payload: AdapterPayload) => AdapterPayload> = {},
  ) {}

  #model(name: string): ModelStore {
    let store = this.#models.get(name)
    if (!store) {
      const persisted = (PERSISTED_MODELS as readonly string[]).includes(name)
      store = new ModelStore(persisted ? join(this.dir, `${name}.json`) : undefined)
      this.#models.set(name, store)
    }
    return store
  }

  /** The adapter oidc-provider uses for the model `name`. */
  adapter(name: string): Adapter {
    const store = this.#model(name)
    const onFind = this.onFind[name] ?? ((p: AdapterPayload) => p)
    return {
      async upsert(id, payload, expiresIn) {
        store.set(id, { payload, ...(expiresIn ? { expiresAt: wallSeconds() + expiresIn } : {}) })
      },
      async find(id) {
        const payload = store.get(id)?.payload
        return payload && onFind(payload)
      },
      async findByUserCode(userCode) {
        const [id] = store.idsWhere((p) => p.userCode === userCode)
        return id === undefined ? undefined : store.get(id)?.payload
      },
      async findByUid(uid) {
        const [id] = store.idsWhere((p) => p.uid === uid)
        return id === undefined ? undefined : store.get(id)?.payload
      },
      async consume(id) {
        const entry = store.get(id)
        if (entry) store.set(id, { ...entry, payload: { ...entry.payload, consumed: wallSeconds() } })
      },
      async destroy(id) {
        store.delete([id])
      },
      async revokeByGrantId(grantId) {
        store.delete(store.idsWhere((p) => p.grantId === grantId))
      },
    }
  }

  /** The stored payload of `id` in model `name`, as written (no onFind hook). */
  raw(name: string, id: string): AdapterPayload | undefined {
    return this.#model(name).get(id)?.payload
  }

  /** Removes every token, code and grant issued to `clientId` (used when a client is deleted). */
  destroyClientArtifacts(clientId: string): void {
    for (const name of ['AccessToken', 'ClientCredentials', 'RefreshToken', 'AuthorizationCode', 'Grant']) {
      const store = this.#model(name)
      store.delete(store.idsWhere((p) => p.clientId === clientId))
    }
  }
}
