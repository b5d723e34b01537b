import type { Adapter, AdapterPayload } from 'oidc-provider'
import type { ModelVersion, OidcModelStore, StoredModel } from '../../store/oidc-models.ts'

/**
 * How long a JWT id claimed by replay detection is held before oidc-provider saves it with the JWT's own
 * expiry (it does so at once; this bounds a claim whose save never came).
 */
const REPLAY_CLAIM_SECONDS = 60 * 60

/** Read versions kept for `takeLastReadVersion`, at most (the oldest go first). */
const LAST_READ_MAX = 1024

/** What the storage needs from the loaded oidc-provider and the sandbox. */
export interface OidcStorageHooks {
  /** Per model name, a function applied to a payload as it is read (e.g. fresh client keys). */
  onFind?: Record<string, (payload: AdapterPayload) => AdapterPayload | Promise<AdapterPayload>>
  /**
   * The error oidc-provider answers when a code or token is redeemed a second time (`invalid_grant`),
   * thrown when another request consumed it first.
   */
  alreadyConsumed?: (model: string) => Error
}

const CONSUMED_LABEL: Record<string, string> = {
  AuthorizationCode: 'authorization code',
  RefreshToken: 'refresh token',
  DeviceCode: 'device code',
  BackchannelAuthenticationRequest: 'backchannel authentication request',
}

/**
 * oidc-provider's storage on the sandbox store's `oidc` part (store/oidc-models.ts): hands oidc-provider an
 * Adapter per model. Two checks oidc-provider makes in two steps are made atomic here, so that they hold
 * across instances sharing one store:
 * - `consume`: oidc-provider checks `consumed` on the code it read, then consumes it; the store consumes
 *   only an unconsumed entry, so of two requests redeeming one code at once the second gets `invalid_grant`.
 * - replay detection: oidc-provider looks a JWT id up, then saves it; here the look-up claims it (insert if
 *   absent), so a JWT presented twice at once is found by one of the two.
 */
export class SandboxOidcStorage {
  /** Versions of the entries oidc-provider read last (model and id), for `lastReadVersion`; bounded. */
  readonly #lastRead = new Map<string, unknown>()

  constructor(
    readonly models: OidcModelStore,
    private readonly hooks: OidcStorageHooks = {},
  ) {}

  /** The adapter oidc-provider uses for the model `name`. */
  adapter(name: string): Adapter {
    const { models } = this
    const remember = (id: string, version: unknown) => {
      if (this.#lastRead.size >= LAST_READ_MAX) this.#lastRead.delete(this.#lastRead.keys().next().value!)
      this.#lastRead.set(`${name}\u0000${id}`, version)
    }
    const onFind = this.hooks.onFind?.[name] ?? ((p: AdapterPayload) => p)
    const alreadyConsumed = this.hooks.alreadyConsumed
    return {
      async upsert(id, payload, expiresIn) {
        await models.upsert(name, id, payload, expiresIn || undefined)
      },
      async find(id) {
        if (name === 'ReplayDetection') {
          // Claims the id: absent, it is now held (and oidc-provider saves it next); present, a replay.
          const claimed = await models.insertOnce(name, id, { jti: id }, REPLAY_CLAIM_SECONDS)
          return claimed ? undefined : (await models.find(name, id))?.payload
        }
        const stored = await models.find(name, id)
        if (!stored) return undefined
        remember(id, stored.version)
        return onFind(stored.payload)
      },
      async findByUserCode(userCode) {
        return models.findBy(name, 'userCode', userCode)
      },
      async findByUid(uid) {
        return models.findBy(name, 'uid', uid)
      },
      async consume(id) {
        if (!(await models.consume(name, id)) && alreadyConsumed) throw alreadyConsumed(name)
      },
      async destroy(id) {
        await models.destroy(name, id)
      },
      async revokeByGrantId(grantId) {
        await models.revokeByGrantId(name, grantId)
      },
    }
  }

  /** The stored entry of `id` in model `name`, as written (no onFind hook), with its version. */
  stored(name: string, id: string): Promise<StoredModel | undefined> {
    return this.models.find(name, id)
  }

  /**
   * The version of the entry oidc-provider read last through this storage (taken: a second call answers
   * undefined), so that a check made on what oidc-provider read can be remembered without reading it again.
   */
  takeLastReadVersion(name: string, id: string): unknown {
    const key = `${name}\u0000${id}`
    const version = this.#lastRead.get(key)
    this.#lastRead.delete(key)
    return version
  }

  /** Whether the entries are still stored at the versions read. */
  unchanged(entries: readonly ModelVersion[]): Promise<boolean> {
    return this.models.unchanged(entries)
  }

  /** Removes every token, code and grant issued to `clientId` (used when a client is deleted). */
  destroyClientArtifacts(clientId: string): Promise<void> {
    return this.models.destroyClientArtifacts(clientId)
  }
}

/** The `invalid_grant` message oidc-provider gives a code or token redeemed twice, for `model`. */
export function alreadyConsumedMessage(model: string): string {
  return `${CONSUMED_LABEL[model] ?? model} already consumed`
}
