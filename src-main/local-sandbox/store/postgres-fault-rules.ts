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

/** The `application_name` of each instance's listening session: the sessions whose copies a change waits for. */
export const FAULT_RULES_LISTENER = 'ob-console sandbox fault rules'

/** How long a change waits at most for every listening instance to read it, ms (then it answers anyway). */
export const COPIES_WAIT_MS = 2000

export interface PostgresFaultRulesOptions {
  /** How long a change waits at most for the other instances' copies, ms (COPIES_WAIT_MS). */
  copiesWaitMs?: number
}

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
 * The fault rules in PostgreSQL (table `fault_rules`, migrations 004 and 005), one set for every instance. A
 * change locks the table (changes one at a time; a count waits for it), takes the next version and
 * announces it on `sandbox_fault_rules` when it commits; it resolves once every instance's listening session
 * recorded that its copy holds the version (`fault_rule_copies`), or after `copiesWaitMs`. Counting a
 * request is one statement: the row's lock orders concurrent counts, and its WHERE, re-checked on the locked
 * row, refuses a rule that has applied its fault `times` times.
 */
export class PostgresFaultRules implements FaultRuleStore {
  readonly #copiesWaitMs: number
  /** The watcher's, told when a change answers before every listening instance read it. */
  #lagging: ((behind: number) => void) | undefined

  constructor(
    private readonly pool: Pool,
    options: PostgresFaultRulesOptions = {},
  ) {
    this.#copiesWaitMs = options.copiesWaitMs ?? COPIES_WAIT_MS
  }

  async #change<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    const [out, version] = await inTransaction(this.pool, async (c): Promise<[T, number]> => {
      await c.query('LOCK TABLE fault_rules IN SHARE ROW EXCLUSIVE MODE')
      const result = await work(c)
      const v = await c.query<{ version: string }>(
        'UPDATE fault_rule_ids SET version = version + 1 WHERE id = 1 RETURNING version',
      )
      const next = Number(v.rows[0]!.version)
      await c.query('SELECT pg_notify($1, $2)', [FAULT_RULES_CHANNEL, String(next)])
      return [result, next]
    })
    await this.#copiesHold(version)
    return out
  }

  /** Listening sessions (one per instance) whose copy does not yet hold `version`. */
  async #behind(version: number): Promise<number> {
    const r = await this.pool.query<{ behind: number }>(
      `SELECT count(*)::int AS behind FROM pg_stat_activity a
       WHERE a.datname = current_database() AND a.application_name = $1
         AND NOT EXISTS (SELECT 1 FROM fault_rule_copies c WHERE c.listener = a.pid AND c.version >= $2)`,
      [FAULT_RULES_LISTENER, version],
    )
    return r.rows[0]!.behind
  }

  /** Resolves once every listening instance's copy holds `version`, or after `copiesWaitMs` (told to the watcher). */
  async #copiesHold(version: number): Promise<void> {
    const until = Date.now() + this.#copiesWaitMs
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      const behind = await this.#behind(version)
      if (behind === 0) return
      if (Date.now() >= until) return this.#lagging?.(behind)
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
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
   * Listens on `sandbox_fault_rules` on a connection of its own (taken from the pool until stopped, named
   * FAULT_RULES_LISTENER). Once listening, and after each announced change, `changed` reads the rules and
   * the version it holds is recorded for the session, which the change's author waits for. A lost
   * connection is replaced after a second, and `changed` called then (changes made meanwhile were missed).
   */
  async watch(changed: () => Promise<void>, lagging?: (behind: number) => void): Promise<() => Promise<void>> {
    this.#lagging = lagging
    let session: { c: PoolClient; pid: number } | undefined
    let stopped = false
    let retry: NodeJS.Timeout | undefined
    /** Reads the rules, then records that the session's copy holds `version` (a newer record stays). */
    const read = async (pid: number, version: number) => {
      await changed()
      await this.pool.query(
        `INSERT INTO fault_rule_copies (listener, version) VALUES ($1, $2)
         ON CONFLICT (listener) DO UPDATE SET version = GREATEST(fault_rule_copies.version, EXCLUDED.version), at = now()`,
        [pid, version],
      )
    }
    const listen = async (): Promise<void> => {
      const c = await this.pool.connect()
      try {
        await c.query(`SET application_name = '${FAULT_RULES_LISTENER}'`)
        const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
        c.on('notification', (n) => {
          if (n.channel !== FAULT_RULES_CHANNEL) return
          // A failed read is told by `changed` itself; the author's wait is bounded.
          read(pid, Number(n.payload)).catch(() => undefined)
        })
        c.on('error', () => {
          // The connection is lost: drop it and listen again on another.
          if (session?.c !== c) return
          session = undefined
          c.release(true)
          if (!stopped) retry = setTimeout(relisten, RELISTEN_MS)
        })
        await c.query(`LISTEN ${FAULT_RULES_CHANNEL}`)
        session = { c, pid }
        // Every change from here on is announced; a copy read now holds at least this version.
        const v = await c.query<{ version: string }>('SELECT version FROM fault_rule_ids WHERE id = 1')
        await read(pid, Number(v.rows[0]!.version))
      } catch (err) {
        if (session?.c === c) session = undefined
        c.release(true)
        throw err
      }
    }
    const relisten = () => {
      retry = undefined
      listen().catch(() => {
        if (!stopped) retry = setTimeout(relisten, RELISTEN_MS)
      })
    }
    await listen()
    return async () => {
      stopped = true
      if (retry) clearTimeout(retry)
      const s = session
      session = undefined
      if (!s) return
      await s.c.query(`UNLISTEN ${FAULT_RULES_CHANNEL}`).catch(() => undefined)
      await this.pool.query('DELETE FROM fault_rule_copies WHERE listener = $1', [s.pid]).catch(() => undefined)
      // Not back to the pool: the session is named as a listener.
      s.c.release(true)
    }
  }
}
