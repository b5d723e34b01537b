import {
  FaultRuleError,
  globToRegExp,
  parseFaultRule,
  parseFaultRules,
  type FaultRule,
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

interface Entry {
  rule: FaultRule
  pattern: RegExp
  seen: number
  hits: number
}

/**
 * The sandbox's fault rules and their counts. Rules are tried in order; the first active rule that
 * matches a request counts it, and applies its fault unless the request is among its first `skip`, in
 * which case the next rules are tried. `tls-handshake` rules match connections, not requests.
 */
export class FaultSet {
  #entries: Entry[] = []
  #next = 1

  constructor(rules: unknown[] = []) {
    if (rules.length) this.set(rules)
  }

  #assignId = (): string => {
    let id: string
    do id = `f${this.#next++}`
    while (this.#entries.some((e) => e.rule.id === id))
    return id
  }

  #entry(rule: FaultRule): Entry {
    return { rule, pattern: globToRegExp(rule.path), seen: 0, hits: 0 }
  }

  /** Replaces every rule; throws FaultRuleError (naming `rules[i].field`) and keeps the old set when one is bad. */
  set(rules: unknown): FaultRuleState[] {
    const saved = this.#entries
    this.#entries = []
    try {
      this.#entries = parseFaultRules(rules, this.#assignId).map((r) => this.#entry(r))
    } catch (err) {
      this.#entries = saved
      throw err
    }
    return this.list()
  }

  /** Adds one rule at the end; throws FaultRuleError when it is bad or its id is taken. */
  add(rule: unknown): FaultRuleState {
    const parsed = parseFaultRule(rule, 'rule', this.#assignId)
    if (this.#entries.some((e) => e.rule.id === parsed.id))
      throw new FaultRuleError(
        'rule.id',
        `rule.id "${parsed.id}" is the id of a rule already set; remove it first or choose another id`,
      )
    const entry = this.#entry(parsed)
    this.#entries.push(entry)
    return this.#state(entry)
  }

  /** Removes the rule with this id; false when there is none. */
  remove(id: string): boolean {
    const before = this.#entries.length
    this.#entries = this.#entries.filter((e) => e.rule.id !== id)
    return this.#entries.length < before
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const n = this.#entries.length
    this.#entries = []
    return n
  }

  list(): FaultRuleState[] {
    return this.#entries.map((e) => this.#state(e))
  }

  get size(): number {
    return this.#entries.length
  }

  #state(e: Entry): FaultRuleState {
    return { ...e.rule, seen: e.seen, hits: e.hits, exhausted: this.#exhausted(e) }
  }

  #exhausted(e: Entry): boolean {
    return e.rule.times !== undefined && e.hits >= e.rule.times
  }

  #take(test: (e: Entry) => boolean): FaultRule | undefined {
    for (const e of this.#entries) {
      if (this.#exhausted(e) || !test(e)) continue
      e.seen++
      if (e.seen <= e.rule.skip) continue
      e.hits++
      return e.rule
    }
    return undefined
  }

  /** The fault for this request, counted; undefined when none applies. */
  forRequest(origin: SandboxOrigin, method: string, path: string): FaultRule | undefined {
    return this.#take(
      (e) =>
        e.rule.fault.kind !== 'tls-handshake' &&
        (e.rule.origin === 'any' || e.rule.origin === origin) &&
        (e.rule.method === undefined || e.rule.method === method.toUpperCase()) &&
        e.pattern.test(path),
    )
  }

  /** The `tls-handshake` rule for a new connection to this origin, counted; undefined when none applies. */
  forConnection(origin: SandboxOrigin): FaultRule | undefined {
    return this.#take(
      (e) => e.rule.fault.kind === 'tls-handshake' && (e.rule.origin === 'any' || e.rule.origin === origin),
    )
  }
}
