import type { Pool } from 'pg'
import { checkDocumentName, type BankDocument, type BankDocuments } from './bank-documents.ts'

/**
 * The advisory lock an instance holds while it creates the bank's identity (PKI, signing keys, cookie
 * keys): distinct from MIGRATION_LOCK (postgres-migrations.ts), which only migrations take.
 */
export const IDENTITY_LOCK = 0x0b5a_1d01

/**
 * The PostgreSQL store's bank documents: rows of `bank_documents` (migration 003), shared by every
 * instance on the database, so each serves the same CA, keys and TPPs whatever its data directory holds.
 * The create-once lock is `pg_advisory_lock(IDENTITY_LOCK)`, held on one connection while `fn` runs; it
 * goes with the connection, so an instance killed while holding it does not block the others.
 */
export class PostgresBankDocuments implements BankDocuments {
  readonly inDataDir = false

  constructor(
    private readonly pool: Pool,
    /** The store's URL with its password masked, for messages. */
    private readonly shownUrl: string,
  ) {}

  async read(name: string): Promise<string | undefined> {
    const r = await this.pool.query<{ body: string }>('SELECT body FROM bank_documents WHERE name = $1', [
      checkDocumentName(name),
    ])
    return r.rows[0]?.body
  }

  async write(name: string, text: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO bank_documents (name, body) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET body = EXCLUDED.body, updated_at = now()`,
      [checkDocumentName(name), text],
    )
  }

  async list(prefix: string): Promise<BankDocument[]> {
    // starts_with, not LIKE: a prefix holds no pattern characters to escape.
    const r = await this.pool.query<{ name: string; body: string }>(
      'SELECT name, body FROM bank_documents WHERE starts_with(name, $1) ORDER BY name',
      [prefix],
    )
    return r.rows.map((row) => ({ name: row.name, text: row.body }))
  }

  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    const c = await this.pool.connect()
    let broken: Error | undefined
    // A connection lost while the lock is held (the server restarted, an admin ended it) is reported
    // here rather than as an uncaught error; the lock went with it, and the connection is not reused.
    const lost = (err: Error) => (broken = err)
    c.on('error', lost)
    try {
      await c.query('SELECT pg_advisory_lock($1)', [IDENTITY_LOCK])
      try {
        return await fn()
      } finally {
        await c.query('SELECT pg_advisory_unlock($1)', [IDENTITY_LOCK]).catch((err: Error) => (broken = err))
      }
    } finally {
      // A connection whose unlock failed is closed rather than reused: its session lock goes with it.
      c.off('error', lost)
      c.release(broken)
    }
  }

  locate(prefix: string): { where: string; remove: string } {
    // A folder-like prefix (pki/) names rows; a full name (auth/signing-key.json) names one document.
    if (!prefix.endsWith('/'))
      return {
        where: `bank document ${prefix} in the store ${this.shownUrl} (table bank_documents)`,
        remove: `delete that row (DELETE FROM bank_documents WHERE name = '${prefix}')`,
      }
    return {
      where: `the store ${this.shownUrl} (table bank_documents, names starting ${prefix})`,
      remove: `delete those rows (DELETE FROM bank_documents WHERE starts_with(name, '${prefix}'))`,
    }
  }
}
