import type { ExchangeDto, FailedStepDto } from '../contract/exchange.ts'
import type { ExchangeFilter, ExchangePage, ExchangeSummaryDto } from '../contract/exchange-summaries.ts'
import type { ExchangeHead } from '../http/exchange-log.ts'

/**
 * The path of an absolute URL as sent (`https://host:443/a/b?q#f` -> `/a/b`), without parsing it into a URL
 * object for every exchange; a string that is not `scheme://authority...` is kept whole.
 */
export function pathOf(url: string): string {
  const scheme = url.indexOf('://')
  if (scheme <= 0) return url
  const rest = url.slice(scheme + 3)
  const end = rest.search(/[/?#]/)
  if (end < 0 || rest[end] !== '/') return '/'
  const path = rest.slice(end)
  const cut = path.search(/[?#]/)
  return cut < 0 ? path : path.slice(0, cut)
}

function summarise(x: ExchangeHead, flowId: string | undefined, byConsole: boolean): ExchangeSummaryDto {
  const path = pathOf(x.url)
  // One per exchange: plain assignments, not conditional spreads (see ExchangeRecorder.exchangeInput).
  const s: ExchangeSummaryDto = {
    id: x.id,
    startedAt: x.startedAt,
    method: x.method,
    url: x.url,
    path,
    totalMs: x.totalMs,
    responseSize: x.responseSize,
  }
  if (x.status !== undefined) s.status = x.status
  if (x.errorCode) s.errorCode = x.errorCode
  if (flowId) s.flowId = flowId
  if (byConsole) s.byConsole = true
  if (x.label) s.label = x.label
  return s
}

/** Whether a summary passes the filter, the console's own exchanges aside (see `list`). */
function matchesRest(s: ExchangeSummaryDto, f: ExchangeFilter): boolean {
  if (f.flowId && s.flowId !== f.flowId) return false
  if (
    f.pathContains &&
    !s.path.toLowerCase().includes(f.pathContains.toLowerCase()) &&
    !(s.label ?? '').toLowerCase().includes(f.pathContains.toLowerCase())
  )
    return false
  if (f.status !== undefined) {
    if (typeof f.status === 'number') return s.status === f.status
    if (f.status === 'error') return s.status === undefined
    return s.status !== undefined && String(s.status)[0] === f.status[0]
  }
  return true
}

function matches(s: ExchangeSummaryDto, f: ExchangeFilter): boolean {
  return !(f.hideByConsole && s.byConsole) && matchesRest(s, f)
}

/**
 * The HTTP engine's summary index: one row per recorded exchange (the newest `capacity` kept), which flow or
 * whether the console made it, the step that failed on it; the inspector lists and filters tens of thousands of
 * exchanges from it without building their full views.
 */
export class ExchangeIndex {
  private readonly summaries: ExchangeSummaryDto[] = []
  private readonly byId = new Map<string, ExchangeSummaryDto>()
  private readonly flowOf = new Map<string, string>()
  // The exchanges the console made for itself (not the user's flows), by id, until recorded.
  private readonly byConsole = new Set<string>()
  // The flow steps that failed on an exchange, by exchange id (few: one per failed step run).
  private readonly failedSteps = new Map<string, FailedStepDto>()
  private readonly listeners = new Set<(s: ExchangeSummaryDto) => void>()

  constructor(readonly capacity: number) {}

  /** The row of an exchange just recorded, the oldest dropped past the capacity; listeners hear of it. */
  record(x: ExchangeHead): void {
    const summary = summarise(x, this.flowOf.get(x.id), this.byConsole.delete(x.id))
    this.summaries.push(summary)
    this.byId.set(summary.id, summary)
    if (this.summaries.length > this.capacity)
      for (const old of this.summaries.splice(0, this.summaries.length - this.capacity)) {
        this.byId.delete(old.id)
        this.failedSteps.delete(old.id)
      }
    this.notify(summary)
  }

  /** An exchange of a request belongs to the flow, or to the console, whether or not it is recorded yet. */
  claim(id: string, flowId: string | undefined, own: boolean): void {
    if (flowId) this.flowOf.set(id, flowId)
    if (own) this.byConsole.add(id)
    const s = this.byId.get(id)
    if (s && flowId) s.flowId = flowId
    if (s && own) {
      // Recorded before it was marked (a failed try is recorded at once): its row again, marked.
      s.byConsole = true
      this.byConsole.delete(id)
      this.notify(s)
    }
  }

  /** The row again, once the conformance check gave it its count of violations. */
  noteViolations(id: string, count: number): void {
    const s = this.byId.get(id)
    if (!s) return
    s.violations = count
    this.notify(s)
  }

  get(id: string): ExchangeSummaryDto | undefined {
    return this.byId.get(id)
  }

  has(id: string): boolean {
    return this.byId.has(id)
  }

  noteFailedStep(id: string, failed: FailedStepDto): void {
    this.failedSteps.set(id, { ...failed })
  }

  /** An exchange's view with the step that failed on it, if one did, and whether the console made it for itself. */
  withFailedStep(x: ExchangeDto): ExchangeDto {
    const failed = this.failedSteps.get(x.id)
    if (failed) x.failedStep = { ...failed }
    if (this.byId.get(x.id)?.byConsole) x.byConsole = true
    return x
  }

  /** One page of the rows that pass the filter, with how many of the console's own it hid when asked to. */
  list(filter: ExchangeFilter | undefined): ExchangePage {
    const f = filter ?? {}
    const hits: ExchangeSummaryDto[] = []
    let hidden = 0
    for (const s of this.summaries) {
      if (!matchesRest(s, f)) continue
      if (f.hideByConsole && s.byConsole) hidden++
      else hits.push(s)
    }
    const offset = Math.max(0, f.offset ?? 0)
    const limit = Math.min(Math.max(1, f.limit ?? 200), 5000)
    const page: ExchangePage = { total: hits.length, items: hits.slice(offset, offset + limit) }
    if (f.hideByConsole) page.hiddenByConsole = hidden
    return page
  }

  /** The ids of every row that passes the filter, oldest first (the HAR and Postman exports). */
  idsMatching(filter: ExchangeFilter | undefined): string[] {
    return this.summaries.filter((s) => matches(s, filter ?? {})).map((s) => s.id)
  }

  onRecord(listener: (s: ExchangeSummaryDto) => void): () => boolean {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  clear(): void {
    this.summaries.length = 0
    this.byId.clear()
    this.flowOf.clear()
    this.byConsole.clear()
    this.failedSteps.clear()
  }

  private notify(s: ExchangeSummaryDto): void {
    for (const l of this.listeners) l(s)
  }
}
