import type { AdapterPayload } from 'oidc-provider'

/**
 * oidc-provider's models (clients, grants, tokens, authorisation codes, sessions, interactions, replay
 * detection) as a part of the sandbox store, so that every backend keeps them its own way and makes the
 * checks concurrent requests could break atomic: consuming a code or refresh token (`consume`), claiming a
 * JWT id (`insertOnce`). Expiry counts in wall-clock seconds, as oidc-provider does (not the sandbox clock).
 */
export interface OidcModelStore {
  /** Stores `payload` under `model` and `id`, replacing what was there; `expiresIn` seconds from now (none: never). */
  upsert(model: string, id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>
  /** The live (unexpired) entry, with its version: a value that changes whenever the entry is written or removed. */
  find(model: string, id: string): Promise<StoredModel | undefined>
  /** The live entry of `model` whose payload has `field` equal to `value` (oidc-provider's findByUid/findByUserCode). */
  findBy(model: string, field: 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined>
  /**
   * Marks the entry consumed (`payload.consumed`, wall seconds) unless it is consumed already, gone or
   * expired, atomically with that check: true when this call consumed it. Of two concurrent calls, one wins.
   */
  consume(model: string, id: string): Promise<boolean>
  /** Stores `payload` unless a live entry has this id, atomically with the check: true when it was stored. */
  insertOnce(model: string, id: string, payload: AdapterPayload, expiresIn: number): Promise<boolean>
  destroy(model: string, id: string): Promise<void>
  /** Removes every entry of `model` issued under the grant `grantId`. */
  revokeByGrantId(model: string, grantId: string): Promise<void>
  /** Removes every token, code and grant issued to `clientId` (the client itself stays). */
  destroyClientArtifacts(clientId: string): Promise<void>
  /** Whether each entry is still stored, live, at the version read (one look for all). */
  unchanged(entries: readonly ModelVersion[]): Promise<boolean>
  /** Removes the expired entries; how many were removed. */
  deleteExpired(): Promise<number>
}

export interface StoredModel {
  payload: AdapterPayload
  /** Compared with `unchanged`; opaque. */
  version: unknown
}

export interface ModelVersion {
  model: string
  id: string
  version: unknown
}

/** The models a client's tokens, codes and grants live in (removed with the client). */
export const CLIENT_ARTIFACT_MODELS = ['AccessToken', 'ClientCredentials', 'RefreshToken', 'AuthorizationCode', 'Grant']

/** Wall-clock seconds, as oidc-provider counts expiry. */
export const wallSeconds = (): number => Math.floor(Date.now() / 1000)
