import type { PageEvent, ProbeEvent } from './probe.ts'
import type {
  ConformanceFailure,
  ConformanceLimits,
  ConformanceReport,
  ConformanceRuleResult,
  RequestFacts,
} from './report-types.ts'
import { CONFORMANCE_RULES, ruleById, type ConformanceRuleId } from './rules.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

interface RuleTally {
  passed: number
  failed: number
  failures: ConformanceFailure[]
}

/** One transactions list being read: which pages were asked for, and whether it was read to the end. */
interface Listing {
  totalPages: number
  seen: Set<number>
  last: number
  /** The request of the last page asked for (where a stop is reported). */
  lastRequest: RequestFacts
  done: boolean
  /** A page was skipped: reading it to the end does not make it a pass. */
  flawed: boolean
}

/** A ClientRecord as JSON (what a database backend stores per client); the maps as entry lists, in order. */
export interface ClientRecordState {
  key: string
  keyedBy: 'client' | 'certificate'
  requests: number
  firstSeen: string
  lastSeen: string
  tallies: [ConformanceRuleId, RuleTally][]
  listings: [string, Omit<Listing, 'seen'> & { seen: number[] }][]
  interactionIds: [string, string][]
}

/** What the sandbox recorded about one client's (or one certificate's) requests. */
export class ClientRecord {
  readonly #tallies = new Map<ConformanceRuleId, RuleTally>()
  readonly #listings = new Map<string, Listing>()
  /** Interaction id -> "METHOD path" of the call that first used it. */
  readonly #interactionIds = new Map<string, string>()
  requests = 0
  firstSeen: string
  lastSeen: string

  constructor(
    readonly key: string,
    readonly keyedBy: 'client' | 'certificate',
    private readonly limits: ConformanceLimits,
    at: string,
  ) {
    this.firstSeen = at
    this.lastSeen = at
  }

  toState(): ClientRecordState {
    return {
      key: this.key,
      keyedBy: this.keyedBy,
      requests: this.requests,
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      tallies: [...this.#tallies],
      listings: [...this.#listings].map(([k, l]) => [k, { ...l, seen: [...l.seen] }]),
      interactionIds: [...this.#interactionIds],
    }
  }

  static fromState(state: ClientRecordState, limits: ConformanceLimits): ClientRecord {
    const record = new ClientRecord(state.key, state.keyedBy, limits, state.firstSeen)
    record.requests = state.requests
    record.lastSeen = state.lastSeen
    for (const [rule, tally] of state.tallies) record.#tallies.set(rule, tally)
    for (const [k, l] of state.listings) record.#listings.set(k, { ...l, seen: new Set(l.seen) })
    for (const [id, call] of state.interactionIds) record.#interactionIds.set(id, call)
    return record
  }

  #tally(rule: ConformanceRuleId): RuleTally {
    let t = this.#tallies.get(rule)
    if (!t) {
      t = { passed: 0, failed: 0, failures: [] }
      this.#tallies.set(rule, t)
    }
    return t
  }

  pass(rule: ConformanceRuleId): void {
    this.#tally(rule).passed++
  }

  fail(rule: ConformanceRuleId, facts: RequestFacts, detail: string): void {
    const t = this.#tally(rule)
    t.failed++
    t.failures.push({ ...facts, detail, spec: ruleById(rule).spec, refused: facts.status >= 400 })
    if (t.failures.length > this.limits.failuresPerRule) t.failures.shift()
  }

  /** Folds one request's check outcomes in: per rule, one failure (its details joined) or one pass. */
  record(events: readonly ProbeEvent[], facts: RequestFacts): void {
    this.requests++
    this.lastSeen = facts.at
    const byRule = new Map<ConformanceRuleId, string[]>()
    for (const e of events) {
      const list = byRule.get(e.rule) ?? []
      if (!e.ok) list.push(e.detail ?? 'failed')
      byRule.set(e.rule, list)
    }
    for (const [rule, failures] of byRule) {
      if (failures.length) this.fail(rule, facts, [...new Set(failures)].join(' | '))
      else this.pass(rule)
    }
  }

  /** The interaction id rule: sent, a UUID, and not reused on a different call (a retry of the same call may reuse it). */
  interactionId(sent: string | undefined, facts: RequestFacts): void {
    if (!sent) {
      const detail = `no x-fapi-interaction-id was sent; the sandbox answered with ${facts.interactionId}, which the client cannot match to its call. `
      return this.fail('interaction-id', facts, `${detail}Send a new UUID on every call`)
    }
    if (!UUID.test(sent)) {
      const detail = `x-fapi-interaction-id "${sent.slice(0, 60)}" is not a UUID; the sandbox replaced it with ${facts.interactionId}, `
      return this.fail(
        'interaction-id',
        facts,
        `${detail}so the echo does not match what was sent. Send an RFC 4122 UUID`,
      )
    }
    const call = `${facts.method} ${facts.path}`
    const first = this.#interactionIds.get(sent.toLowerCase())
    if (first !== undefined && first !== call) {
      const detail = `x-fapi-interaction-id ${sent} was already used on ${first}; `
      return this.fail(
        'interaction-id',
        facts,
        `${detail}use a new UUID for every call (only a retry of the same call may reuse it)`,
      )
    }
    if (first === undefined) {
      this.#interactionIds.set(sent.toLowerCase(), call)
      if (this.#interactionIds.size > this.limits.interactionIdsPerClient)
        this.#interactionIds.delete(this.#interactionIds.keys().next().value!)
    }
    this.pass('interaction-id')
  }

  /** A transactions page was asked for (answered, or refused as past the last page). */
  page(event: PageEvent, facts: RequestFacts): void {
    const { listing: key, page, totalPages } = event
    if (page > totalPages) {
      return this.fail(
        'pagination',
        facts,
        `page ${page} is past the last page (${totalPages}) of this list; follow Links.Next and stop when it is absent`,
      )
    }
    if (facts.status !== 200) return
    let listing = this.#listings.get(key)
    if (page === 1) {
      // Page 1 starts a new reading; an unfinished earlier one was left.
      if (listing && !listing.done) this.#stopped(listing)
      listing = { totalPages, seen: new Set([1]), last: 1, lastRequest: facts, done: false, flawed: false }
      this.#listings.delete(key)
      this.#listings.set(key, listing)
      this.#evictListings()
      if (totalPages === 1) this.#finish(listing)
      return
    }
    if (!listing) {
      listing = { totalPages, seen: new Set(), last: 0, lastRequest: facts, done: false, flawed: true }
      this.#listings.set(key, listing)
      this.#evictListings()
      this.fail(
        'pagination',
        facts,
        `page ${page} of ${totalPages} was asked for without reading the pages before it; start at page 1 and follow Links.Next`,
      )
    } else if (!listing.seen.has(page) && !listing.seen.has(page - 1)) {
      listing.flawed = true
      const detail = `jumped from page ${listing.last} to page ${page} of ${totalPages}, skipping page ${page - 1}; `
      this.fail('pagination', facts, `${detail}follow Links.Next one page at a time`)
    }
    listing.totalPages = totalPages
    listing.seen.add(page)
    listing.last = page
    listing.lastRequest = facts
    if (page >= totalPages && !listing.done) this.#finish(listing)
  }

  #finish(listing: Listing): void {
    listing.done = true
    if (!listing.flawed) this.pass('pagination')
  }

  #stopped(listing: Listing): void {
    listing.done = true
    this.fail('pagination', listing.lastRequest, this.#stopDetail(listing))
  }

  #stopDetail(listing: Listing): string {
    const where = `stopped after page ${listing.last} of ${listing.totalPages}`
    return `${where}: Links.Next (page ${listing.last + 1}) was not followed; read a paginated list to its last page`
  }

  #evictListings(): void {
    while (this.#listings.size > this.limits.listingsPerClient) {
      const [oldKey, old] = this.#listings.entries().next().value!
      this.#listings.delete(oldKey)
      if (!old.done) this.#stopped(old)
    }
  }

  /**
   * The report as of now. A list still unfinished counts as stopped where it stands (a report is taken
   * after the client's run); reading on to the last page takes that failure back.
   */
  report(): ConformanceReport {
    const open = [...this.#listings.values()].filter((l) => !l.done)
    const rules: ConformanceRuleResult[] = CONFORMANCE_RULES.map((rule) => {
      const t = this.#tallies.get(rule.id) ?? { passed: 0, failed: 0, failures: [] }
      let failed = t.failed
      let failures = t.failures
      if (rule.id === 'pagination' && open.length) {
        failed += open.length
        const stops = open.map((l) => ({
          ...l.lastRequest,
          detail: this.#stopDetail(l),
          spec: rule.spec,
          refused: false,
        }))
        failures = [...failures, ...stops].sort((a, b) => a.at.localeCompare(b.at)).slice(-this.limits.failuresPerRule)
      }
      const { id, title, checks, spec, enforcement } = rule
      return {
        id,
        title,
        checks,
        spec,
        enforcement,
        passed: t.passed,
        failed,
        lastFailures: failures.map((f) => ({ ...f })),
      }
    })
    return {
      clientId: this.key,
      keyedBy: this.keyedBy,
      ok: rules.every((r) => r.failed === 0),
      requests: this.requests,
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      rules,
      limits: { ...this.limits },
    }
  }
}
