import type { Pool, PoolClient } from 'pg'
import type { FaultRule } from '../faults/fault-rules.ts'
import {
  freeId,
  isPlaceholderId,
  nameRules,
  type FaultRuleStore,
  type FaultTake,
  type StoredFaultRule,
} from './fault-rule-store.ts'
import { inTransaction } from './postgres-transaction.ts'

/** The channel every change of the rule set is announced on (`NOTIFY`), to the instances' cached lists. */
export const FAULT_RULES_CHANNEL = 'sandbox_fault_rules'

/** How long a lost LISTEN connection waits before connecting again, ms. */
const RELISTEN_MS = 1000

interface Row {
  key: string
  rule: FaultRule
  seen: string
  hits: string
}

const stored = (r: Row): StoredFaultRule => ({
  key: Number(r.key),
  rule: r.rule,
  seen: Number(r.seen),
  hits: Number(r.hits),
})

/**
 * The fault rules in PostgreSQL (table `fault_rules`, migration 004), one set for every instance. A change
 * locks the table (changes one at a time; a count waits for it) and announces itself on
 * `sandbox_fault_rules` when it commits. Counting a request is one statement: the row's lock orders
 * concurrent counts, and its WHERE, re-checked on the locked row, refuses a rule that has applied its
 * fault `times` times.
 */
export class PostgresFaultRules implements FaultRuleStore {
  constructor(private readonly pool: Pool) {}

  async #change<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (c) => {
      await c.query('LOCK TABLE fault_rules IN SHARE ROW EXCLUSIVE MODE')
      const out = await work(c)
      await c.query('SELECT pg_notify($1, $2)', [FAULT_RULES_CHANNEL, ''])
      return out
    })
  }

  async #nextId(c: PoolClient): Promise<number> {
    return Number((await c.query<{ next: string }>('SELECT next FROM fault_rule_ids WHERE id = 1')).rows[0]!.next)
  }

  async #insert(c: PoolClient, rule: FaultRule, position: number): Promise<StoredFaultRule> {
    const r = await c.query<Row>(
      `INSERT INTO fault_rules (position, id, rule, skip, times) VALUES ($1, $2, $3, $4, $5)
       RETURNING key, rule, seen, hits`,
      [position, rule.id, JSON.stringify(rule), rule.skip, rule.times ?? null],
    )
    return stored(r.rows[0]!)
  }

  async replace(rules: readonly FaultRule[]): Promise<StoredFaultRule[]> {
    return this.#change(async (c) => {
      await c.query('DELETE FROM fault_rules')
      const [named, next] = nameRules(rules, await this.#nextId(c))
      await c.query('UPDATE fault_rule_ids SET next = $1 WHERE id = 1', [next])
      const out: StoredFaultRule[] = []
      for (const [i, rule] of named.entries()) out.push(await this.#insert(c, rule, i))
      return out
    })
  }

  async add(rule: FaultRule): Promise<StoredFaultRule | 'taken'> {
    return this.#change(async (c) => {
      const ids = new Set((await c.query<{ id: string }>('SELECT id FROM fault_rules')).rows.map((r) => r.id))
      let named = rule
      if (isPlaceholderId(rule.id)) {
        const [id, next] = freeId(await this.#nextId(c), (candidate) => ids.has(candidate))
        await c.query('UPDATE fault_rule_ids SET next = $1 WHERE id = 1', [next])
        named = { ...rule, id }
      } else if (ids.has(rule.id)) return 'taken'
      const position = (await c.query<{ p: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS p FROM fault_rules'))
        .rows[0]!.p
      return this.#insert(c, named, position)
    })
  }

  async remove(id: string): Promise<boolean> {
    return this.#change(async (c) => ((await c.query('DELETE FROM fault_rules WHERE id = $1', [id])).rowCount ?? 0) > 0)
  }

  async clear(): Promise<number> {
    return this.#change(async (c) => (await c.query('DELETE FROM fault_rules')).rowCount ?? 0)
  }

  async list(): Promise<StoredFaultRule[]> {
    const r = await this.pool.query<Row>('SELECT key, rule, seen, hits FROM fault_rules ORDER BY position')
    return r.rows.map(stored)
  }

  async take(key: number): Promise<FaultTake> {
    // `seen` and `hits` on the right are the values before this update.
    const r = await this.pool.query<{ hit: boolean }>(
      `UPDATE fault_rules SET seen = seen + 1, hits = hits + CASE WHEN seen >= skip THEN 1 ELSE 0 END
       WHERE key = $1 AND (times IS NULL OR hits < times)
       RETURNING seen > skip AS hit`,
      [key],
    )
    const row = r.rows[0]
    return row === undefined ? 'gone' : row.hit ? 'hit' : 'skipped'
  }

  /**
   * Listens on `sandbox_fault_rules` on a connection of its own (taken from the pool until stopped). A lost
   * connection is replaced after a second, and `changed` called then (changes made meanwhile were missed).
   */
  async watch(changed: () => void): Promise<() => Promise<void>> {
    let client: PoolClient | undefined
    let stopped = false
    let retry: NodeJS.Timeout | undefined
    const listen = async (): Promise<void> => {
      const c = await this.pool.connect()
      c.on('notification', (n) => {
        if (n.channel === FAULT_RULES_CHANNEL) changed()
      })
      c.on('error', () => {
        // The connection is lost: drop it and listen again on another.
        if (client !== c) return
        client = undefined
        c.release(true)
        if (!stopped) retry = setTimeout(relisten, RELISTEN_MS)
      })
      try {
        await c.query(`LISTEN ${FAULT_RULES_CHANNEL}`)
      } catch (err) {
        c.release(true)
        throw err
      }
      client = c
    }
    const relisten = () => {
      retry = undefined
      listen().then(changed, () => {
        if (!stopped) retry = setTimeout(relisten, RELISTEN_MS)
      })
    }
    await listen()
    return async () => {
      stopped = true
      if (retry) clearTimeout(retry)
      const c = client
      client = undefined
      if (c) {
        await c.query(`UNLISTEN ${FAULT_RULES_CHANNEL}`).catch(() => undefined)
        c.release()
      }
    }
  }
}
