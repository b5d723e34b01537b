import type { FaultRule } from '../faults/fault-rules.ts'

/** A fault rule as stored, with its counts. */
export interface StoredFaultRule {
  /** Unique per stored rule and never reused (an id may be: a rule replaced by another of the same id). */
  key: number
  rule: FaultRule
  /** Matching requests (connections) counted while the rule was active, skipped ones included. */
  seen: number
  /** Requests (connections) the fault was applied to. */
  hits: number
}

/** What counting one matching request did: the fault applies (`hit`), it was among the first `skip`, or the rule is gone or exhausted. */
export type FaultTake = 'hit' | 'skipped' | 'gone'

/**
 * The fault rules and their counts as a part of the sandbox store, so that every instance on one store
 * applies one rule set: a rule with `times: 1` faults one request across all of them. Rule ids the author
 * left out arrive as placeholders (`isPlaceholderId`) and the store names them `f1`, `f2`… (never an id
 * in use). Each instance keeps the list cached (`faults/fault-set.ts`) and comes here only to count a
 * request a rule matched (`take`) and when told the rules changed (`watch`).
 */
export interface FaultRuleStore {
  /** Replaces every rule (in order), counts starting at 0. */
  replace(rules: readonly FaultRule[]): Promise<StoredFaultRule[]>
  /** Adds one rule at the end; `taken` when a rule already has its id. */
  add(rule: FaultRule): Promise<StoredFaultRule | 'taken'>
  /** Removes the rule with this id; false when there is none. */
  remove(id: string): Promise<boolean>
  /** Removes every rule; how many there were. */
  clear(): Promise<number>
  /** The rules in order, with their counts. */
  list(): Promise<StoredFaultRule[]>
  /**
   * Counts one matching request against the rule stored under `key`, atomically with the checks: `gone`
   * when it was removed or has applied its fault `times` times already (nothing counted); else `seen`
   * goes up, and `hits` too unless this request is among the first `skip` (`skipped`).
   */
  take(key: number): Promise<FaultTake>
  /**
   * Calls `changed` (which reads the rules into the caller's copy) once watching, and after each change
   * through any instance on the store; the result stops watching. A change resolves once every watcher's
   * `changed` read it (on PostgreSQL: or after a bound, for an instance that stalled; `lagging` is then told
   * how many instances had not read a change made through this store when it answered).
   */
  watch(changed: () => Promise<void>, lagging?: (behind: number) => void): Promise<() => Promise<void>>
}

/** The id a rule gets while its author left it out, until the store names it: never a valid rule id. */
export const placeholderId = (n: number): string => `#${n}`
export const isPlaceholderId = (id: string): boolean => id.startsWith('#')

/** The first `f<n>` from `next` on that `taken` does not hold; the number after it. */
export function freeId(next: number, taken: (id: string) => boolean): [string, number] {
  while (taken(`f${next}`)) next++
  return [`f${next}`, next + 1]
}

/** Names the placeholder ids of a rule set in order from `next`, skipping ids the set uses; the rules and the next number. */
export function nameRules(rules: readonly FaultRule[], next: number): [FaultRule[], number] {
  const used = new Set(rules.map((r) => r.id))
  const named = rules.map((rule) => {
    if (!isPlaceholderId(rule.id)) return rule
    const [id, after] = freeId(next, (candidate) => used.has(candidate))
    next = after
    used.add(id)
    return { ...rule, id }
  })
  return [named, next]
}

/**
 * The fault rules in memory (the embedded backend): they last as long as the process, as the rules of a
 * test run should; a restart starts with the `--faults` file's rules or none.
 */
export class MemoryFaultRules implements FaultRuleStore {
  #rules: StoredFaultRule[] = []
  #nextKey = 1
  #nextId = 1
  readonly #watchers = new Set<() => Promise<void>>()

  /** Resolves once every watcher read the change (one that fails says why itself). */
  async #changed(): Promise<void> {
    await Promise.allSettled([...this.#watchers].map((w) => w()))
  }

  #copy = (r: StoredFaultRule): StoredFaultRule => ({ ...r })

  async replace(rules: readonly FaultRule[]): Promise<StoredFaultRule[]> {
    const [named, next] = nameRules(rules, this.#nextId)
    this.#nextId = next
    this.#rules = named.map((rule) => ({ key: this.#nextKey++, rule, seen: 0, hits: 0 }))
    await this.#changed()
    return this.#rules.map(this.#copy)
  }

  async add(rule: FaultRule): Promise<StoredFaultRule | 'taken'> {
    let named = rule
    if (isPlaceholderId(rule.id)) {
      const [id, next] = freeId(this.#nextId, (candidate) => this.#rules.some((r) => r.rule.id === candidate))
      this.#nextId = next
      named = { ...rule, id }
    } else if (this.#rules.some((r) => r.rule.id === rule.id)) return 'taken'
    const stored = { key: this.#nextKey++, rule: named, seen: 0, hits: 0 }
    this.#rules.push(stored)
    await this.#changed()
    return this.#copy(stored)
  }

  async remove(id: string): Promise<boolean> {
    const before = this.#rules.length
    this.#rules = this.#rules.filter((r) => r.rule.id !== id)
    if (this.#rules.length === before) return false
    await this.#changed()
    return true
  }

  async clear(): Promise<number> {
    const n = this.#rules.length
    this.#rules = []
    if (n) await this.#changed()
    return n
  }

  async list(): Promise<StoredFaultRule[]> {
    return this.#rules.map(this.#copy)
  }

  async take(key: number): Promise<FaultTake> {
    const r = this.#rules.find((x) => x.key === key)
    if (!r || (r.rule.times !== undefined && r.hits >= r.rule.times)) return 'gone'
    r.seen++
    if (r.seen <= r.rule.skip) return 'skipped'
    r.hits++
    return 'hit'
  }

  async watch(changed: () => Promise<void>): Promise<() => Promise<void>> {
    const watcher = () => changed()
    this.#watchers.add(watcher)
    await changed()
    return async () => void this.#watchers.delete(watcher)
  }
}
