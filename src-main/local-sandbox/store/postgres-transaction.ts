import type { Pool, PoolClient } from 'pg'

/** What a transaction's work returns to roll back and still answer `rollback` (a refusal is no error). */
export interface Rollback<T> {
  rollback: T
}

/**
 * Runs `work` in one transaction on one connection of `pool`: committed when it returns, rolled back when it
 * throws (the error goes on) or returns `{ rollback: value }` (then `value` is the answer).
 */
export async function inTransaction<T>(pool: Pool, work: (c: PoolClient) => Promise<T | Rollback<T>>): Promise<T> {
  const c = await pool.connect()
  try {
    await c.query('BEGIN')
    const out = await work(c)
    if (out !== null && typeof out === 'object' && 'rollback' in out) {
      await c.query('ROLLBACK')
      return out.rollback
    }
    await c.query('COMMIT')
    return out
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined)
    throw err
  } finally {
    c.release()
  }
}
