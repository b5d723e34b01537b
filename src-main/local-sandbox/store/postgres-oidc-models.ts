import type { AdapterPayload } from 'oidc-provider'
import type { Pool } from 'pg'
import {
  CLIENT_ARTIFACT_MODELS,
  wallSeconds,
  type ModelVersion,
  type OidcModelStore,
  type StoredModel,
} from './oidc-models.ts'

/** A row is live while it has no expiry or its expiry (wall seconds, `$n`) is ahead. */
const LIVE = (n: number, table = '') => `(${table}expires_at IS NULL OR ${table}expires_at > $${n})`

const expiresAt = (expiresIn: number | undefined) => (expiresIn ? wallSeconds() + expiresIn : null)

/**
 * Whether PostgreSQL's text can hold `value`: it refuses U+0000. oidc-provider makes every id it stores,
 * so an id with one is a request's hostile value (a code, a token, a client id): it is found nowhere.
 */
const storable = (value: string) => !value.includes('\0')

/**
 * oidc-provider's models in PostgreSQL (table `oidc_models`, migration 002), shared by every instance:
 * a code redeemed on one is consumed for all (`UPDATE … WHERE consumed_at IS NULL`: of two instances
 * redeeming at once, one updates the row and the other finds it consumed), a JWT id claimed on one is
 * seen by all (`INSERT … ON CONFLICT`). Versions come from a sequence, written with every change.
 */
export class PostgresOidcModels implements OidcModelStore {
  constructor(private readonly pool: Pool) {}

  async upsert(model: string, id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO oidc_models (model, id, payload, expires_at, consumed_at) VALUES ($1, $2, $3, $4, ($3::jsonb ->> 'consumed')::bigint)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at,
         consumed_at = EXCLUDED.consumed_at, version = nextval('oidc_model_versions')`,
      [model, id, payload, expiresAt(expiresIn)],
    )
  }

  async find(model: string, id: string): Promise<StoredModel | undefined> {
    if (!storable(id)) return undefined
    const r = await this.pool.query<{ payload: AdapterPayload; version: string }>(
      `SELECT payload, version FROM oidc_models WHERE model = $1 AND id = $2 AND ${LIVE(3)}`,
      [model, id, wallSeconds()],
    )
    const row = r.rows[0]
    return row && { payload: row.payload, version: row.version }
  }

  async findBy(model: string, field: 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
    if (!storable(value)) return undefined
    const column = field === 'uid' ? 'uid' : 'user_code'
    const r = await this.pool.query<{ payload: AdapterPayload }>(
      `SELECT payload FROM oidc_models WHERE model = $1 AND ${column} = $2 AND ${LIVE(3)} LIMIT 1`,
      [model, value, wallSeconds()],
    )
    return r.rows[0]?.payload
  }

  async consume(model: string, id: string): Promise<boolean> {
    if (!storable(id)) return false
    const now = wallSeconds()
    const r = await this.pool.query(
      `UPDATE oidc_models SET consumed_at = $3, payload = payload || jsonb_build_object('consumed', $3::bigint),
         version = nextval('oidc_model_versions')
       WHERE model = $1 AND id = $2 AND consumed_at IS NULL AND ${LIVE(3)}`,
      [model, id, now],
    )
    return r.rowCount === 1
  }

  async insertOnce(model: string, id: string, payload: AdapterPayload, expiresIn: number): Promise<boolean> {
    const now = wallSeconds()
    // An expired row with the id is taken over; a live one is left alone (nothing returned).
    const r = await this.pool.query(
      `INSERT INTO oidc_models (model, id, payload, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at,
         consumed_at = NULL, version = nextval('oidc_model_versions')
       WHERE oidc_models.expires_at IS NOT NULL AND oidc_models.expires_at <= $5
       RETURNING id`,
      [model, id, payload, now + expiresIn, now],
    )
    return r.rowCount === 1
  }

  async destroy(model: string, id: string): Promise<void> {
    if (!storable(id)) return
    await this.pool.query('DELETE FROM oidc_models WHERE model = $1 AND id = $2', [model, id])
  }

  async revokeByGrantId(model: string, grantId: string): Promise<void> {
    if (!storable(grantId)) return
    await this.pool.query('DELETE FROM oidc_models WHERE model = $1 AND grant_id = $2', [model, grantId])
  }

  async destroyClientArtifacts(clientId: string): Promise<void> {
    if (!storable(clientId)) return
    await this.pool.query('DELETE FROM oidc_models WHERE client_id = $1 AND model = ANY($2)', [
      clientId,
      CLIENT_ARTIFACT_MODELS,
    ])
  }

  async unchanged(entries: readonly ModelVersion[]): Promise<boolean> {
    if (entries.length === 0) return true
    if (!entries.every((e) => storable(e.id))) return false
    const r = await this.pool.query<{ model: string; id: string; version: string }>(
      `SELECT m.model, m.id, m.version FROM oidc_models m
       JOIN unnest($1::text[], $2::text[]) AS k(model, id) ON m.model = k.model AND m.id = k.id
       WHERE ${LIVE(3, 'm.')}`,
      [entries.map((e) => e.model), entries.map((e) => e.id), wallSeconds()],
    )
    return entries.every((e) =>
      r.rows.some((row) => row.model === e.model && row.id === e.id && row.version === e.version),
    )
  }

  async deleteExpired(): Promise<number> {
    const r = await this.pool.query('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= $1', [
      wallSeconds(),
    ])
    return r.rowCount ?? 0
  }
}
