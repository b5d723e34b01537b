import { createRequire } from 'node:module'
import type * as Pg from 'pg'
import type { Pool, PoolClient } from 'pg'
import type { ConsentRecord } from '../consents/consent-store.ts'
import type { PaymentRecord } from '../pis/store/payment-store.ts'
import { redactStoreUrl } from './open-store.ts'
import { PostgresBankDocuments } from './postgres-documents.ts'
import { migrate, migrationsOnDisk } from './postgres-migrations.ts'
import { inTransaction, type Rollback } from './postgres-transaction.ts'
import { PostgresConformance } from './postgres-conformance.ts'
import { PostgresFaultRules } from './postgres-fault-rules.ts'
import { PostgresOidcModels } from './postgres-oidc-models.ts'
import type {
  ConsentChange,
  ConsentChangeOutcome,
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotentEndpoint,
  IdempotentOutcome,
  PaymentForConsent,
  PaymentOutcome,
  PsuAbsentOutcome,
  PsuAbsentQuota,
  SandboxStore,
} from './sandbox-store.ts'
import { applyConsentChange, idempotencyLive, inWindow } from './store-rules.ts'

/**
 * pg, loaded on the first PostgreSQL store only (the embedded store never pays for it), with `require` from
 * node_modules at run time: the built command line leaves it out of its bundle (scripts/runtime-modules.mjs
 * finds such packages for the container image).
 */
export const loadPg = (): typeof Pg => createRequire(import.meta.url)('pg') as typeof Pg

interface KeyRow {
  client_id: string
  endpoint: string
  idempotency_key: string
  body_sha256: string
  resource_id: string
  created_at_ms: string
}

const keyRecord = (r: KeyRow): IdempotencyRecord => ({
  clientId: r.client_id,
  endpoint: r.endpoint as IdempotentEndpoint,
  key: r.idempotency_key,
  bodySha256: r.body_sha256,
  resourceId: r.resource_id,
  createdAtMs: Number(r.created_at_ms),
})

/**
 * The PostgreSQL backend (`--store postgres://…`): one database shared by every sandbox instance. Each
 * compound operation is one transaction that makes it atomic across processes: the idempotency key is
 * claimed with `INSERT … ON CONFLICT` (a concurrent request with the same key waits for the first
 * transaction, then finds its key and replays it), the consent is locked with `SELECT … FOR UPDATE`
 * before it is paid or moved, the clock moves with `offset_ms = offset_ms + $1`, a PSU-absent counter
 * row is locked while an access is counted.
 */
export class PostgresStore implements SandboxStore {
  readonly backend = 'postgres'
  readonly documents: PostgresBankDocuments

  readonly oidc: PostgresOidcModels
  /** The newest migration this instance knows (`resources/local-sandbox/migrations`). */
  #expectedVersion: number | undefined
  readonly faults: PostgresFaultRules
  readonly conformance: PostgresConformance

  private constructor(
    private readonly pool: Pool,
    shownUrl: string,
  ) {
    this.oidc = new PostgresOidcModels(pool)
    this.faults = new PostgresFaultRules(pool)
    this.conformance = new PostgresConformance(pool)
    this.documents = new PostgresBankDocuments(pool, shownUrl)
  }

  /** Connects a pool to `url` and applies the migrations the database lacks (under an advisory lock). */
  static async open(url: string, options: { max?: number } = {}): Promise<PostgresStore> {
    const pg = loadPg()
    // bigint columns (ms since the epoch) come back as strings; the store converts them where it reads them.
    const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 })
    pool.on('error', () => {
      // An idle client lost its connection: the pool drops it and the next query opens another.
    })
    try {
      const client = await pool.connect()
      try {
        await migrate(client)
      } finally {
        client.release()
      }
    } catch (err) {
      await pool.end()
      throw err
    }
    return new PostgresStore(pool, redactStoreUrl(url))
  }

  /** Runs `work` in one transaction (see inTransaction): committed, or rolled back on a throw or `{ rollback }`. */
  #tx<T>(work: (c: PoolClient) => Promise<T | Rollback<T>>): Promise<T> {
    return inTransaction(this.pool, work)
  }

  async clockOffset(): Promise<number> {
    const r = await this.pool.query<{ offset_ms: string }>('SELECT offset_ms FROM sandbox_clock WHERE id = 1')
    return Number(r.rows[0]!.offset_ms)
  }

  async advanceClock(ms: number): Promise<number> {
    const r = await this.pool.query<{ offset_ms: string }>(
      'UPDATE sandbox_clock SET offset_ms = offset_ms + $1 WHERE id = 1 RETURNING offset_ms',
      [Math.round(ms)],
    )
    return Number(r.rows[0]!.offset_ms)
  }

  async raiseClockOffset(ms: number): Promise<number> {
    const r = await this.pool.query<{ offset_ms: string }>(
      'UPDATE sandbox_clock SET offset_ms = GREATEST(offset_ms, $1) WHERE id = 1 RETURNING offset_ms',
      [Math.round(ms)],
    )
    return Number(r.rows[0]!.offset_ms)
  }

  async insertConsent(record: ConsentRecord): Promise<void> {
    await this.pool.query('INSERT INTO consents (consent_id, status, record) VALUES ($1, $2, $3)', [
      record.consentId,
      record.status,
      record,
    ])
  }

  async consent(consentId: string): Promise<ConsentRecord | undefined> {
    const r = await this.pool.query<{ record: ConsentRecord }>('SELECT record FROM consents WHERE consent_id = $1', [
      consentId,
    ])
    return r.rows[0]?.record
  }

  async changeConsent(
    consentId: string,
    from: readonly string[],
    change: ConsentChange,
  ): Promise<ConsentChangeOutcome> {
    return this.#tx<ConsentChangeOutcome>(async (c) => {
      const consent = await lockConsent(c, consentId)
      if (!consent || !from.includes(consent.status)) return { rollback: { changed: false, consent } }
      const next = applyConsentChange(consent, change)
      await saveConsent(c, next)
      return { changed: true, consent: next }
    })
  }

  async createConsentOnce(claim: IdempotencyClaim, record: ConsentRecord): Promise<IdempotentOutcome<ConsentRecord>> {
    return this.#tx<IdempotentOutcome<ConsentRecord>>(async (c) => {
      const seen = await claimKey(c, claim, record.consentId)
      if (seen) return { rollback: seen }
      await c.query('INSERT INTO consents (consent_id, status, record) VALUES ($1, $2, $3)', [
        record.consentId,
        record.status,
        record,
      ])
      return { kind: 'created', value: record }
    })
  }

  async idempotencyRecord(claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    const r = await this.pool.query<KeyRow>(
      'SELECT * FROM idempotency_keys WHERE client_id = $1 AND endpoint = $2 AND idempotency_key = $3',
      [claim.clientId, claim.endpoint, claim.key],
    )
    const record = r.rows[0] && keyRecord(r.rows[0])
    return record && idempotencyLive(record, claim) ? record : undefined
  }

  async createPaymentForConsent(input: PaymentForConsent): Promise<PaymentOutcome> {
    const { payment } = input
    const outcome = await this.#tx<PaymentOutcome>(async (c) => {
      const seen = await claimKey(c, input.claim, payment.domesticPaymentId)
      if (seen?.kind === 'replay') return { rollback: { ...seen, payment: undefined } }
      if (seen) return { rollback: seen }
      const consent = await lockConsent(c, payment.consentId)
      const existing = await paymentWhere(c, 'consent_id', payment.consentId)
      if (existing[0]) return { rollback: { kind: 'consumed', payment: existing[0] } }
      if (!consent || consent.status !== 'AUTH') return { rollback: { kind: 'not-authorised', consent } }
      await c.query(
        'INSERT INTO payments (domestic_payment_id, consent_id, debtor_account_id, created_at_ms, record) VALUES ($1, $2, $3, $4, $5)',
        [payment.domesticPaymentId, payment.consentId, payment.debtorAccountId ?? null, payment.createdAtMs, payment],
      )
      await saveConsent(c, applyConsentChange(consent, { status: 'COND', ...input.consumed }))
      return { kind: 'created', payment }
    })
    // The winner's payment, read after its transaction committed (the key's row was waited for).
    if (outcome.kind === 'replay') return { ...outcome, payment: await this.payment(outcome.resourceId) }
    return outcome
  }

  async payment(domesticPaymentId: string): Promise<PaymentRecord | undefined> {
    return (await paymentWhere(this.pool, 'domestic_payment_id', domesticPaymentId))[0]
  }

  async paymentByConsent(consentId: string): Promise<PaymentRecord | undefined> {
    return (await paymentWhere(this.pool, 'consent_id', consentId))[0]
  }

  async payments(): Promise<PaymentRecord[]> {
    const r = await this.pool.query<{ record: PaymentRecord }>(
      'SELECT record FROM payments ORDER BY created_at_ms, domestic_payment_id',
    )
    return r.rows.map((x) => x.record)
  }

  paymentsFromAccount(accountId: string): Promise<PaymentRecord[]> {
    return paymentWhere(this.pool, 'debtor_account_id', accountId)
  }

  async paymentCounts(accountIds: readonly string[]): Promise<Map<string, number>> {
    const r = await this.pool.query<{ id: string; n: string }>(
      'SELECT debtor_account_id AS id, count(*) AS n FROM payments WHERE debtor_account_id = ANY($1) GROUP BY 1',
      [accountIds],
    )
    const counts = new Map(accountIds.map((id) => [id, 0]))
    for (const row of r.rows) counts.set(row.id, Number(row.n))
    return counts
  }

  async countPsuAbsentAccess(key: string, quota: PsuAbsentQuota): Promise<PsuAbsentOutcome> {
    return this.#tx<PsuAbsentOutcome>(async (c) => {
      await c.query(
        `INSERT INTO psu_absent_accesses (counter_key, times_ms) VALUES ($1, '[]') ON CONFLICT (counter_key) DO NOTHING`,
        [key],
      )
      const r = await c.query<{ times_ms: number[] }>(
        'SELECT times_ms FROM psu_absent_accesses WHERE counter_key = $1 FOR UPDATE',
        [key],
      )
      const recent = inWindow(r.rows[0]!.times_ms, quota.nowMs, quota.windowMs)
      if (quota.continuation && recent.length > 0) return { rollback: { allowed: true } }
      if (recent.length >= quota.limit) return { rollback: { allowed: false, oldestMs: recent[0]! } }
      await c.query('UPDATE psu_absent_accesses SET times_ms = $2 WHERE counter_key = $1', [
        key,
        JSON.stringify([...recent, quota.nowMs]),
      ])
      return { allowed: true }
    })
  }

  async psuAbsentUsed(key: string, nowMs: number, windowMs: number): Promise<number> {
    const r = await this.pool.query<{ times_ms: number[] }>(
      'SELECT times_ms FROM psu_absent_accesses WHERE counter_key = $1',
      [key],
    )
    return inWindow(r.rows[0]?.times_ms ?? [], nowMs, windowMs).length
  }

  async claimRegistrationJti(softwareId: string, jti: string, expSeconds: number, nowSeconds: number) {
    const r = await this.pool.query(
      `INSERT INTO registration_jtis (software_id, jti, exp_seconds) VALUES ($1, $2, $3)
       ON CONFLICT (software_id, jti) DO UPDATE SET exp_seconds = EXCLUDED.exp_seconds
       WHERE registration_jtis.exp_seconds <= $4
       RETURNING jti`,
      [softwareId, jti, expSeconds, nowSeconds],
    )
    return r.rowCount === 1
  }

  async readiness(): Promise<string[]> {
    const expected = (this.#expectedVersion ??= Math.max(0, ...migrationsOnDisk().map((m) => m.version)))
    let current: number
    try {
      const r = await this.pool.query<{ v: number | null }>('SELECT max(version) AS v FROM sandbox_migrations')
      current = r.rows[0]?.v ?? 0
    } catch (err) {
      return [`the PostgreSQL store cannot be reached: ${(err as Error).message}`]
    }
    if (current < expected)
      return [
        `the store's schema is at migration ${current}, this instance needs ${expected}: restart it, or run ob-console sandbox migrate --store URL`,
      ]
    if (current > expected)
      return [
        `the store's schema is at migration ${current}, newer than this instance knows (${expected}): upgrade this instance to the version that migrated it`,
      ]
    return []
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}

/** The consent, its row locked until the transaction ends. */
async function lockConsent(c: PoolClient, consentId: string): Promise<ConsentRecord | undefined> {
  const r = await c.query<{ record: ConsentRecord }>('SELECT record FROM consents WHERE consent_id = $1 FOR UPDATE', [
    consentId,
  ])
  return r.rows[0]?.record
}

async function saveConsent(c: PoolClient, record: ConsentRecord): Promise<void> {
  await c.query('UPDATE consents SET status = $2, record = $3 WHERE consent_id = $1', [
    record.consentId,
    record.status,
    record,
  ])
}

async function paymentWhere(
  q: Pick<PoolClient, 'query'>,
  column: 'domestic_payment_id' | 'consent_id' | 'debtor_account_id',
  value: string,
): Promise<PaymentRecord[]> {
  const r = await q.query<{ record: PaymentRecord }>(
    `SELECT record FROM payments WHERE ${column} = $1 ORDER BY created_at_ms, domestic_payment_id`,
    [value],
  )
  return r.rows.map((x) => x.record)
}

/**
 * Claims the idempotency key for `resourceId` inside the caller's transaction: inserted, or taken over when
 * the stored one is out of its window. A concurrent claim of the same key waits here for the first
 * transaction to end. Undefined when claimed; otherwise the live key's replay or conflict.
 */
async function claimKey(
  c: PoolClient,
  claim: IdempotencyClaim,
  resourceId: string,
): Promise<Exclude<IdempotentOutcome<never>, { kind: 'created' }> | undefined> {
  const inserted = await c.query(
    `INSERT INTO idempotency_keys (client_id, endpoint, idempotency_key, body_sha256, resource_id, created_at_ms)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (client_id, endpoint, idempotency_key) DO UPDATE
       SET body_sha256 = EXCLUDED.body_sha256, resource_id = EXCLUDED.resource_id, created_at_ms = EXCLUDED.created_at_ms
       WHERE idempotency_keys.created_at_ms <= $6 - $7
     RETURNING resource_id`,
    [claim.clientId, claim.endpoint, claim.key, claim.bodySha256, resourceId, claim.nowMs, claim.windowMs],
  )
  if (inserted.rowCount === 1) return undefined
  const r = await c.query<KeyRow>(
    'SELECT * FROM idempotency_keys WHERE client_id = $1 AND endpoint = $2 AND idempotency_key = $3',
    [claim.clientId, claim.endpoint, claim.key],
  )
  const record = keyRecord(r.rows[0]!)
  if (record.bodySha256 === claim.bodySha256) return { kind: 'replay', resourceId: record.resourceId }
  return { kind: 'conflict', resourceId: record.resourceId, firstUsedAtMs: record.createdAtMs }
}
