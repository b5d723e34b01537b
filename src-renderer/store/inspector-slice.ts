/**
 * The inspector: every HTTP exchange (filtered by flow, status, path), live as they are recorded, and
 * the selected one in full (secrets masked by the main side; the user reveals them one at a time, in this
 * window only, until masked again), exportable as curl or HAR (masked: a Reveal never reaches an export), with
 * its JWTs checked by role. An exchange
 * opened from elsewhere (a step card, the sequence diagram) is shown whatever the filter: the detail does
 * not depend on the list.
 */
import type { JwtCheckReportDto } from '../../src-main/contract/diagnosis.ts'
import type { ExchangeDto } from '../../src-main/contract/exchange.ts'
import type { ExchangeFilter, ExchangeSummaryDto } from '../../src-main/contract/exchange-summaries.ts'
import { runOp } from './ops.ts'
import { revealedRefs } from './reveal-slice.ts'
import type { GetState, SetState, SliceDeps } from './types.ts'

/** How many summaries one list call fetches. */
export const EXCHANGE_PAGE = 500

export interface InspectorState {
  filter: ExchangeFilter
  /** Newest first. */
  items: ExchangeSummaryDto[]
  total: number
  /**
   * Whether the list shows the exchanges the console made for itself (`byConsole`: its local sandbox's admin
   * calls). Off by default: the list is the user's flows; `hiddenByConsole` counts what it leaves out.
   */
  showByConsole: boolean
  hiddenByConsole: number
  selectedId?: string
  /** The selected exchange, masked. */
  detail?: ExchangeDto
  /** The same exchange with the secrets this window revealed shown (`refs`), while they are revealed. */
  revealedView?: { id: string; refs: string[]; view: ExchangeDto }
  exported?: { id: string; format: 'curl' | 'har'; text: string }
  /** The JWT checks of an exchange (`exchanges.checkJwts`), made when it is selected. */
  jwtChecks?: { id: string; reports: JwtCheckReportDto[] }
}

export interface InspectorSlice {
  inspector: InspectorState
  loadExchanges(more?: boolean): Promise<void>
  setExchangeFilter(patch: Partial<ExchangeFilter>): Promise<void>
  /** Shows or hides the console's own exchanges in the list (the other filters kept). */
  showConsoleExchanges(show: boolean): Promise<void>
  selectExchange(id: string | undefined): Promise<void>
  /**
   * Opens the inspector view on one exchange (from a flow step, the sequence diagram, the guide): its detail
   * shows whatever the list's filter; the view says when the filter hides it from the list.
   */
  openExchange(id: string): Promise<void>
  /**
   * Drops every filter, the console's own exchanges shown too, and reads the list again (so an exchange opened
   * from elsewhere shows in it).
   */
  clearExchangeFilters(): Promise<void>
  /** Checks every JWT of the selected exchange by its role (`exchanges.checkJwts`). */
  checkJwts(): Promise<void>
  /**
   * Reveals one secret of the selected exchange (its ref from `detail.secrets`) in this window: the detail
   * shows it until it is masked again, another exchange is picked, or the reveal expires. Exports stay masked.
   */
  revealSecret(ref: string): Promise<void>
  /** Masks one revealed secret of the selected exchange again. */
  maskSecretAgain(ref: string): void
  /** Reads the view of exchange `id` with its revealed secrets again (the masked detail shows meanwhile). */
  showRevealed(id: string): Promise<void>
  exportExchange(format: 'curl' | 'har'): Promise<string | undefined>
  /** Every exchange the current filter matches (all pages), as one HAR document. */
  exportShownHar(): Promise<string | undefined>
  /** The same exchanges as a Postman Collection v2.1 named `name`. */
  exportShownPostman(name: string): Promise<string | undefined>
  clearExchanges(): Promise<void>
  /** Reads the bank-conformance verdict of the open exchange again (its check ended after it was opened). */
  loadConformance(id: string): Promise<void>
  /** Live: one exchange was recorded, or its row came again with its count of violations (its check ended). */
  recordExchange(summary: ExchangeSummaryDto): void
}

/** Whether a summary passes the filter (the same rules as `exchanges.list`), for live additions. */
export function matchesFilter(s: ExchangeSummaryDto, f: ExchangeFilter): boolean {
  if (f.hideByConsole && s.byConsole) return false
  if (f.flowId && s.flowId !== f.flowId) return false
  if (f.pathContains && !s.path.toLowerCase().includes(f.pathContains.toLowerCase())) return false
  if (f.status === undefined) return true
  if (typeof f.status === 'number') return s.status === f.status
  if (f.status === 'error') return s.status === undefined
  const hundreds = Number(f.status[0])
  return s.status !== undefined && Math.floor(s.status / 100) === hundreds
}

const newestFirst = (a: ExchangeSummaryDto, b: ExchangeSummaryDto) =>
  b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id)

/**
 * What the inspector's actions share beyond the store: the list read last (a later read wins over an earlier
 * one still answering) and the console's own exchanges counted in `hiddenByConsole` since the list was last
 * read (a row comes again when its conformance check ends: counted once).
 */
interface InspectorDeps extends SliceDeps {
  list: { seq: number; hiddenSeen: Set<string> }
}

function patchInspector(set: SetState, p: Partial<InspectorState>): void {
  set((s) => ({ inspector: { ...s.inspector, ...p } }))
}

/** The filter as sent: the user's, and the console's own exchanges left out unless shown. */
function sentFilter(get: GetState): ExchangeFilter {
  const { filter, showByConsole } = get().inspector
  return showByConsole ? filter : { ...filter, hideByConsole: true }
}

async function loadExchanges({ set, get, api, list }: InspectorDeps, more: boolean): Promise<void> {
  const { items } = get().inspector
  const mine = ++list.seq
  const offset = more ? items.length : 0
  const page = await runOp(set, 'exchanges.list', () =>
    api.call('exchanges.list', { ...sentFilter(get), offset, limit: EXCHANGE_PAGE }),
  )
  if (!page || mine !== list.seq) return
  list.hiddenSeen = new Set()
  const merged = more ? [...items, ...page.items.filter((i) => !items.some((x) => x.id === i.id))] : page.items
  patchInspector(set, {
    items: [...merged].sort(newestFirst),
    total: page.total,
    hiddenByConsole: page.hiddenByConsole ?? 0,
  })
}

async function setExchangeFilter({ set, get }: SliceDeps, p: Partial<ExchangeFilter>): Promise<void> {
  const filter = { ...get().inspector.filter, ...p }
  for (const k of Object.keys(filter) as Array<keyof typeof filter>)
    if (filter[k] === undefined || filter[k] === '') delete filter[k]
  patchInspector(set, { filter })
  await get().loadExchanges()
}

async function selectExchange({ set, get, api }: SliceDeps, id: string | undefined): Promise<void> {
  const before = get().inspector.selectedId
  // A Reveal lasts for one view of one exchange: picking another masks it again.
  if (before && before !== id) get().maskAgain({ exchangeId: before })
  patchInspector(set, {
    selectedId: id,
    exported: undefined,
    ...(id ? {} : { detail: undefined, revealedView: undefined }),
  })
  if (!id) return
  const detail = await runOp(set, 'exchanges.get', () => api.call('exchanges.get', { id }))
  if (!detail || get().inspector.selectedId !== id) return
  patchInspector(set, { detail })
  if ((detail.jwts ?? []).length && get().inspector.jwtChecks?.id !== id) await get().checkJwts()
}

async function checkJwts({ set, get, api }: SliceDeps): Promise<void> {
  const id = get().inspector.selectedId
  if (!id) return
  const checked = await runOp(set, 'exchanges.checkJwts', () => api.call('exchanges.checkJwts', { id }))
  if (checked && get().inspector.selectedId === id) patchInspector(set, { jwtChecks: { id, reports: checked.reports } })
}

async function revealSecret({ get }: SliceDeps, ref: string): Promise<void> {
  const id = get().inspector.selectedId
  if (!id) return
  await get().reveal({ exchangeId: id }, ref)
  // Picked another exchange meanwhile: the value is not shown anywhere.
  if (get().inspector.selectedId !== id) get().maskAgain({ exchangeId: id })
}

async function showRevealed({ set, get, api }: SliceDeps, id: string): Promise<void> {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((r, i) => r === b[i])
  const refs = revealedRefs(get().revealed, { exchangeId: id })
  const now = get().inspector.revealedView
  // What is no longer revealed disappears at once: the masked detail shows until the new view comes.
  if (now && (now.id !== id || !same(now.refs, refs))) patchInspector(set, { revealedView: undefined })
  if (!refs.length || get().inspector.selectedId !== id) return
  const view = await runOp(set, 'exchanges.get:reveal', () => api.call('exchanges.get', { id, reveal: refs }))
  const current = revealedRefs(get().revealed, { exchangeId: id })
  if (view && get().inspector.selectedId === id && same(current, refs))
    patchInspector(set, { revealedView: { id, refs, view } })
}

async function exportExchange({ set, get, api }: SliceDeps, format: 'curl' | 'har'): Promise<string | undefined> {
  const id = get().inspector.selectedId
  if (!id) return undefined
  const text = await runOp(set, 'exchanges.export', () => api.call('exchanges.export', { id, format }))
  if (text !== undefined) patchInspector(set, { exported: { id, format, text } })
  return text
}

async function clearExchanges({ set, get, api, list }: InspectorDeps): Promise<void> {
  await runOp(set, 'exchanges.clear', () => api.call('exchanges.clear'))
  if (get().ops['exchanges.clear']?.error) return
  const before = get().inspector.selectedId
  if (before) get().maskAgain({ exchangeId: before })
  list.hiddenSeen = new Set()
  patchInspector(set, {
    items: [],
    total: 0,
    hiddenByConsole: 0,
    selectedId: undefined,
    detail: undefined,
    revealedView: undefined,
    exported: undefined,
    jwtChecks: undefined,
  })
}

async function loadConformance({ set, get, api }: SliceDeps, id: string): Promise<void> {
  const r = await api.call('exchanges.conformance', { id })
  const now = get().inspector.detail
  if (r.ok && r.value && now?.id === id) patchInspector(set, { detail: { ...now, conformance: r.value } })
}

function recordExchange({ set, get, list }: InspectorDeps, summary: ExchangeSummaryDto): void {
  const { items, total } = get().inspector
  const filter = sentFilter(get)
  const at = items.findIndex((i) => i.id === summary.id)
  // Left out as the console's own (the rest of the filter matches): counted once, out of the list.
  if (
    summary.byConsole &&
    !matchesFilter(summary, filter) &&
    matchesFilter(summary, { ...filter, hideByConsole: false })
  ) {
    if (at >= 0) patchInspector(set, { items: items.filter((i) => i.id !== summary.id), total: Math.max(0, total - 1) })
    if (!list.hiddenSeen.has(summary.id)) {
      list.hiddenSeen.add(summary.id)
      patchInspector(set, { hiddenByConsole: get().inspector.hiddenByConsole + 1 })
    }
    return
  }
  if (at >= 0) {
    // The row again: its conformance check ended (the count of violations). The conformance panel of an
    // open exchange then reads its verdict (`loadConformance`).
    patchInspector(set, { items: items.map((i, k) => (k === at ? summary : i)) })
    return
  }
  if (!matchesFilter(summary, filter)) return
  patchInspector(set, { items: [summary, ...items].sort(newestFirst), total: total + 1 })
}

export function inspectorSlice(deps: SliceDeps): InspectorSlice {
  const { set, get, api } = deps
  const d: InspectorDeps = { ...deps, list: { seq: 0, hiddenSeen: new Set() } }
  return {
    inspector: { filter: {}, items: [], total: 0, showByConsole: false, hiddenByConsole: 0 },
    loadExchanges: (more = false) => loadExchanges(d, more),
    async showConsoleExchanges(show) {
      patchInspector(set, { showByConsole: show })
      await get().loadExchanges()
    },
    setExchangeFilter: (p) => setExchangeFilter(d, p),
    selectExchange: (id) => selectExchange(d, id),
    async openExchange(id) {
      set({ view: 'inspector' })
      await get().selectExchange(id)
    },
    async clearExchangeFilters() {
      patchInspector(set, { filter: {}, showByConsole: true })
      await get().loadExchanges()
    },
    checkJwts: () => checkJwts(d),
    revealSecret: (ref) => revealSecret(d, ref),
    maskSecretAgain(ref) {
      const id = get().inspector.selectedId
      if (id) get().maskAgain({ exchangeId: id }, ref)
    },
    showRevealed: (id) => showRevealed(d, id),
    exportExchange: (format) => exportExchange(d, format),
    async exportShownHar() {
      const { offset: _offset, limit: _limit, ...shown } = sentFilter(get)
      return runOp(set, 'exchanges.har', () => api.call('exchanges.har', shown))
    },
    async exportShownPostman(name) {
      const { offset: _offset, limit: _limit, ...shown } = sentFilter(get)
      return runOp(set, 'exchanges.postman', () => api.call('exchanges.postman', { ...shown, name }))
    },
    clearExchanges: () => clearExchanges(d),
    loadConformance: (id) => loadConformance(d, id),
    recordExchange: (summary) => recordExchange(d, summary),
  }
}
