import type { FaultRuleStore, StoredFaultRule } from '../store/fault-rule-store.ts'
import { isPlaceholderId, placeholderId } from '../store/fault-rule-store.ts'
import {
  FaultRuleError,
  globToRegExp,
  parseFaultRule,
  parseFaultRules,
  type FaultRule,
  type FaultRuleInput,
  type SandboxOrigin,
} from './fault-rules.ts'

/** A rule as listed: how many matching requests (or connections) it has seen and how many it faulted. */
export interface FaultRuleState extends FaultRule {
  /** Matching requests (connections for `tls-handshake`) seen while the rule was active, skipped ones included. */
  seen: number
  /** Requests (connections) the fault was applied to. */
  hits: number
  /** True once `times` faults were applied: the rule no longer matches. */
  exhausted: boolean
}

interface Cached {
  key: number
  rule: FaultRule
  pattern: RegExp
  /** Seen exhausted (or removed) when counting: never tried again. */
  gone: boolean
}

/** Checks a rule set (`{"rules": [...]}` or a list), naming left-out ids by placeholders the store replaces. */
export function checkFaultRules(rules: unknown): FaultRule[] {
  let n = 0
  return parseFaultRules(rules, () => placeholderId(++n))
}

/** Checks a rule set as checkFaultRules does; the rules with their defaults, left-out ids still left out. */
export function checkFaultRuleInputs(rules: unknown): FaultRuleInput[] {
  return checkFaultRules(rules).map(({ id, ...rule }) => (isPlaceholderId(id) ? rule : { id, ...rule }))
}

const state = (r: StoredFaultRule): FaultRuleState => ({
  ...r.rule,
  seen: r.seen,
  hits: r.hits,
  exhausted: r.rule.times !== undefined && r.hits >= r.rule.times,
})

/**
 * The sandbox's fault rules, kept in the store (`store/fault-rule-store.ts`: in memory on the embedded
 * backend, in PostgreSQL shared by every instance), with this process's copy of the list. Rules are tried
 * in order; the first active rule that matches a request counts it, and applies its fault unless the
 * request is among its first `skip`, in which case the next rules are tried. `tls-handshake` rules match
 * connections, not requests. Matching is done on the copy, in memory: with no rule set a request costs
 * nothing; only a request a rule matches goes to the store, to be counted atomically there. The copy is
 * read again whenever the store says the rules changed, and a change, made here or through another instance,
 * is in every instance's copy when the call that made it returns (on PostgreSQL: unless an instance stalled
 * past the store's bound).
 */
export class FaultSet {
  #cache: Cached[] = []
  #dirty = false
  #loading: Promise<void> | undefined
  #unwatch: (() => Promise<void>) | undefined

  constructor(
    private readonly store: FaultRuleStore,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Reads the rules and follows their changes until `stop`. */
  async start(): Promise<void> {
    let started = false
    this.#unwatch = await this.store.watch(
      async () => {
        try {
          await this.reload()
        } catch (err) {
          // The first read's failure is start's; later ones are logged (the copy keeps the rules it had).
          if (started) this.log(`fault mode: reading the rules failed: ${(err as Error).message}`)
          throw err
        }
      },
      (behind) =>
        this.log(
          `fault mode: the change answered before ${behind} instance(s) on the store read it (they apply it once they do); check that every instance reaches the database`,
        ),
    )
    started = true
  }

  async stop(): Promise<void> {
    await this.#unwatch?.()
    this.#unwatch = undefined
  }

  /** Reads the list again; resolves once a read that started after this call is in the copy. */
  reload(): Promise<void> {
    this.#dirty = true
    this.#loading ??= (async () => {
      try {
        while (this.#dirty) {
          this.#dirty = false
          const rules = await this.store.list()
          this.#cache = rules.map((r) => ({
            key: r.key,
            rule: r.rule,
            pattern: globToRegExp(r.rule.path),
            gone: r.rule.times !== undefined && r.hits >= r.rule.times,
          }))
        }
      } finally {
        this.#loading = undefined
      }
    })()
    return this.#loading
  }

  /** Replaces every rule; throws FaultRuleError (naming `rules[i].field`) and keeps the old set when one is bad. */
  async set(rules: unknown): Promise<FaultRuleState[]> {
    const parsed = checkFaultRules(rules)
    const stored = await this.store.replace(parsed)
    await this.reload()
    return stored.map(state)
  }

  /** Adds one rule at the end; throws FaultRuleError when it is bad or its id is taken. */
  async add(rule: unknown): Promise<FaultRuleState> {
    const parsed = parseFaultRule(rule, 'rule', () => placeholderId(1))
    const stored = await this.store.add(parsed)
    if (stored === 'taken')
      throw new FaultRuleError(
        'rule.id',
        `rule.id "${parsed.id}" is the id of a rule already set; remove it first or choose another id`,
      )
    await this.reload()
    return state(stored)
  }

  /** Removes the rule with this id; false when there is none. */
  async remove(id: string): Promise<boolean> {
    const removed = await this.store.remove(id)
    await this.reload()
    return removed
  }

  /** Removes every rule; returns how many there were. */
  async clear(): Promise<number> {
    const n = await this.store.clear()
    await this.reload()
    return n
  }

  /** The rules with their counts, as the store has them (every instance's requests counted). */
  async list(): Promise<FaultRuleState[]> {
    return (await this.store.list()).map(state)
  }

  /** Rules in this process's copy still active as far as it knows. */
  get size(): number {
    let n = 0
    for (const c of this.#cache) if (!c.gone) n++
    return n
  }

  async #take(test: (c: Cached) => boolean): Promise<FaultRule | undefined> {
    for (const c of this.#cache) {
      if (c.gone || !test(c)) continue
      const took = await this.store.take(c.key)
      if (took === 'hit') return c.rule
      if (took === 'gone') c.gone = true
    }
    return undefined
  }

  #requestTest(origin: SandboxOrigin, method: string, path: string): (c: Cached) => boolean {
    const m = method.toUpperCase()
    return (c) =>
      c.rule.fault.kind !== 'tls-handshake' &&
      (c.rule.origin === 'any' || c.rule.origin === origin) &&
      (c.rule.method === undefined || c.rule.method === m) &&
      c.pattern.test(path)
  }

  #connectionTest(origin: SandboxOrigin): (c: Cached) => boolean {
    return (c) => c.rule.fault.kind === 'tls-handshake' && (c.rule.origin === 'any' || c.rule.origin === origin)
  }

  /** Whether some rule of the copy might fault this request (no store access): false for most requests. */
  mayFaultRequest(origin: SandboxOrigin, method: string, path: string): boolean {
    const test = this.#requestTest(origin, method, path)
    return this.#cache.some((c) => !c.gone && test(c))
  }

  /** Whether some `tls-handshake` rule of the copy might fail a new connection to this origin. */
  mayFailHandshake(origin: SandboxOrigin): boolean {
    const test = this.#connectionTest(origin)
    return this.#cache.some((c) => !c.gone && test(c))
  }

  /** The fault for this request, counted in the store; undefined when none applies. */
  forRequest(origin: SandboxOrigin, method: string, path: string): Promise<FaultRule | undefined> {
    return this.#take(this.#requestTest(origin, method, path))
  }

  /** The `tls-handshake` rule for a new connection to this origin, counted in the store; undefined when none applies. */
  forConnection(origin: SandboxOrigin): Promise<FaultRule | undefined> {
    return this.#take(this.#connectionTest(origin))
  }
}
