import type { Pool, PoolClient } from 'pg'
import { ClientRecord, type ClientRecordState } from '../conformance/client-record.ts'
import type { ConformanceLimits } from '../conformance/report-types.ts'
import type { ConformanceCounters, ConformanceStore, RememberedToken } from './conformance-store.ts'
import { inTransaction } from './postgres-transaction.ts'

/** PostgreSQL's text cannot hold U+0000: a key with one (a hostile client id) is never stored or found. */
const storable = (value: string) => !value.includes('\0')

/** Deletes the rows of `table` past the `max` most recently active (`active` from one sequence). */
async function trim(q: Pick<PoolClient, 'query'>, table: string, max: number): Promise<number> {
  const r = await q.query(
    `DELETE FROM ${table} WHERE active <= (SELECT active FROM ${table} ORDER BY active DESC OFFSET $1 LIMIT 1)`,
    [max],
  )
  return r.rowCount ?? 0
}

/**
 * The conformance records in PostgreSQL (migration 004), shared by every instance: a client's record is
 * one row (its state as JSON), read with `SELECT … FOR UPDATE`, folded and written back in one
 * transaction, so requests to two instances at once are both counted. Token hashes and certificates are
 * upserted; the tables are trimmed to the limits when a row is added.
 */
export class PostgresConformance implements ConformanceStore {
  constructor(private readonly pool: Pool) {}

  async rememberToken(hash: string, token: RememberedToken, max: number): Promise<void> {
    const r = await this.pool.query<{ added: boolean }>(
      `INSERT INTO conformance_tokens (hash, client_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (hash) DO UPDATE SET client_id = EXCLUDED.client_id, expires_at = EXCLUDED.expires_at,
         active = nextval('conformance_activity')
       RETURNING (xmax = 0) AS added`,
      [hash, token.clientId, token.expiresAt],
    )
    if (r.rows[0]?.added) await trim(this.pool, 'conformance_tokens', max)
  }

  async tokenOwner(hash: string): Promise<RememberedToken | undefined> {
    const r = await this.pool.query<{ client_id: string; expires_at: string }>(
      'SELECT client_id, expires_at FROM conformance_tokens WHERE hash = $1',
      [hash],
    )
    const row = r.rows[0]
    return row && { clientId: row.client_id, expiresAt: Number(row.expires_at) }
  }

  async rememberCertificate(thumbprint: string, clientId: string, max: number): Promise<void> {
    if (!storable(clientId)) return
    const r = await this.pool.query<{ added: boolean }>(
      `INSERT INTO conformance_certificates (thumbprint, client_id) VALUES ($1, $2)
       ON CONFLICT (thumbprint) DO UPDATE SET client_id = EXCLUDED.client_id, active = nextval('conformance_activity')
       RETURNING (xmax = 0) AS added`,
      [thumbprint, clientId],
    )
    if (r.rows[0]?.added) await trim(this.pool, 'conformance_certificates', max)
  }

  async certificateOwner(thumbprint: string): Promise<string | undefined> {
    const r = await this.pool.query<{ client_id: string }>(
      'SELECT client_id FROM conformance_certificates WHERE thumbprint = $1',
      [thumbprint],
    )
    return r.rows[0]?.client_id
  }

  async countUnattributed(): Promise<void> {
    await this.pool.query('UPDATE conformance_counters SET unattributed = unattributed + 1 WHERE id = 1')
  }

  async updateRecord(
    key: string,
    keyedBy: 'client' | 'certificate',
    at: string,
    limits: ConformanceLimits,
    fold: (record: ClientRecord) => void,
  ): Promise<void> {
    if (!storable(key)) return
    await inTransaction(this.pool, async (c) => {
      const fresh = new ClientRecord(key, keyedBy, limits, at)
      // Inserted, or the existing row locked (DO UPDATE) and returned, in one statement.
      const r = await c.query<{ state: ClientRecordState; added: boolean }>(
        `INSERT INTO conformance_clients (key, state) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET active = conformance_clients.active
         RETURNING state, (xmax = 0) AS added`,
        [key, JSON.stringify(fresh.toState())],
      )
      const record = ClientRecord.fromState(r.rows[0]!.state, limits)
      fold(record)
      await c.query(
        "UPDATE conformance_clients SET state = $2, active = nextval('conformance_activity') WHERE key = $1",
        [key, JSON.stringify(record.toState())],
      )
      if (r.rows[0]!.added) {
        const evicted = await trim(c, 'conformance_clients', limits.clients)
        if (evicted)
          await c.query('UPDATE conformance_counters SET evicted_clients = evicted_clients + $1 WHERE id = 1', [
            evicted,
          ])
      }
    })
  }

  async record(key: string, limits: ConformanceLimits): Promise<ClientRecord | undefined> {
    if (!storable(key)) return undefined
    const r = await this.pool.query<{ state: ClientRecordState }>(
      'SELECT state FROM conformance_clients WHERE key = $1',
      [key],
    )
    const row = r.rows[0]
    return row && ClientRecord.fromState(row.state, limits)
  }

  async records(limits: ConformanceLimits): Promise<ClientRecord[]> {
    const r = await this.pool.query<{ state: ClientRecordState }>(
      'SELECT state FROM conformance_clients ORDER BY active DESC',
    )
    return r.rows.map((row) => ClientRecord.fromState(row.state, limits))
  }

  async clear(key?: string): Promise<number> {
    if (key !== undefined && !storable(key)) return 0
    const r =
      key === undefined
        ? await this.pool.query('DELETE FROM conformance_clients')
        : await this.pool.query('DELETE FROM conformance_clients WHERE key = $1', [key])
    return r.rowCount ?? 0
  }

  async counters(): Promise<ConformanceCounters> {
    const r = await this.pool.query<{ unattributed: string; evicted_clients: string }>(
      'SELECT unattributed, evicted_clients FROM conformance_counters WHERE id = 1',
    )
    return { unattributed: Number(r.rows[0]!.unattributed), evictedClients: Number(r.rows[0]!.evicted_clients) }
  }
}
