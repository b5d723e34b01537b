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
import type { SliceDeps } from './types.ts'

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

export function inspectorSlice({ set, get, api }: SliceDeps): InspectorSlice {
  const patch = (p: Partial<InspectorState>) => set((s) => ({ inspector: { ...s.inspector, ...p } }))
  let listSeq = 0
  // The console's own exchanges counted in `hiddenByConsole` since the list was last read (a row comes again
  // when its conformance check ends: counted once).
  let hiddenSeen = new Set<string>()
  /** The filter as sent: the user's, and the console's own exchanges left out unless shown. */
  const sentFilter = (): ExchangeFilter => {
    const { filter, showByConsole } = get().inspector
    return showByConsole ? filter : { ...filter, hideByConsole: true }
  }
  return {
    inspector: { filter: {}, items: [], total: 0, showByConsole: false, hiddenByConsole: 0 },
    async loadExchanges(more = false) {
      const { items } = get().inspector
      const mine = ++listSeq
      const offset = more ? items.length : 0
      const page = await runOp(set, 'exchanges.list', () =>
        api.call('exchanges.list', { ...sentFilter(), offset, limit: EXCHANGE_PAGE }),
      )
      if (!page || mine !== listSeq) return
      hiddenSeen = new Set()
      const merged = more ? [...items, ...page.items.filter((i) => !items.some((x) => x.id === i.id))] : page.items
      patch({ items: [...merged].sort(newestFirst), total: page.total, hiddenByConsole: page.hiddenByConsole ?? 0 })
    },
    async showConsoleExchanges(show) {
      patch({ showByConsole: show })
      await get().loadExchanges()
    },
    async setExchangeFilter(p) {
      const filter = { ...get().inspector.filter, ...p }
      for (const k of Object.keys(filter) as Array<keyof typeof filter>)
        if (filter[k] === undefined || filter[k] === '') delete filter[k]
      patch({ filter })
      await get().loadExchanges()
    },
    async selectExchange(id) {
      const before = get().inspector.selectedId
      // A Reveal lasts for one view of one exchange: picking another masks it again.
      if (before && before !== id) get().maskAgain({ exchangeId: before })
      patch({ selectedId: id, exported: undefined, ...(id ? {} : { detail: undefined, revealedView: undefined }) })
      if (!id) return
      const detail = await runOp(set, 'exchanges.get', () => api.call('exchanges.get', { id }))
      if (!detail || get().inspector.selectedId !== id) return
      patch({ detail })
      if ((detail.jwts ?? []).length && get().inspector.jwtChecks?.id !== id) await get().checkJwts()
    },
    async openExchange(id) {
      set({ view: 'inspector' })
      await get().selectExchange(id)
    },
    async clearExchangeFilters() {
      patch({ filter: {}, showByConsole: true })
      await get().loadExchanges()
    },
    async checkJwts() {
      const id = get().inspector.selectedId
      if (!id) return
      const checked = await runOp(set, 'exchanges.checkJwts', () => api.call('exchanges.checkJwts', { id }))
      if (checked && get().inspector.selectedId === id) patch({ jwtChecks: { id, reports: checked.reports } })
    },
    async revealSecret(ref) {
      const id = get().inspector.selectedId
      if (!id) return
      await get().reveal({ exchangeId: id }, ref)
      // Picked another exchange meanwhile: the value is not shown anywhere.
      if (get().inspector.selectedId !== id) get().maskAgain({ exchangeId: id })
    },
    maskSecretAgain(ref) {
      const id = get().inspector.selectedId
      if (id) get().maskAgain({ exchangeId: id }, ref)
    },
    async showRevealed(id) {
      const same = (a: string[], b: string[]) => a.length === b.length && a.every((r, i) => r === b[i])
      const refs = revealedRefs(get().revealed, { exchangeId: id })
      const now = get().inspector.revealedView
      // What is no longer revealed disappears at once: the masked detail shows until the new view comes.
      if (now && (now.id !== id || !same(now.refs, refs))) patch({ revealedView: undefined })
      if (!refs.length || get().inspector.selectedId !== id) return
      const view = await runOp(set, 'exchanges.get:reveal', () => api.call('exchanges.get', { id, reveal: refs }))
      const current = revealedRefs(get().revealed, { exchangeId: id })
      if (view && get().inspector.selectedId === id && same(current, refs)) patch({ revealedView: { id, refs, view } })
    },
    async exportExchange(format) {
      const id = get().inspector.selectedId
      if (!id) return undefined
      const text = await runOp(set, 'exchanges.export', () => api.call('exchanges.export', { id, format }))
      if (text !== undefined) patch({ exported: { id, format, text } })
      return text
    },
    async exportShownHar() {
      const { offset: _offset, limit: _limit, ...shown } = sentFilter()
      return runOp(set, 'exchanges.har', () => api.call('exchanges.har', shown))
    },
    async exportShownPostman(name) {
      const { offset: _offset, limit: _limit, ...shown } = sentFilter()
      return runOp(set, 'exchanges.postman', () => api.call('exchanges.postman', { ...shown, name }))
    },
    async clearExchanges() {
      await runOp(set, 'exchanges.clear', () => api.call('exchanges.clear'))
      if (get().ops['exchanges.clear']?.error) return
      const before = get().inspector.selectedId
      if (before) get().maskAgain({ exchangeId: before })
      hiddenSeen = new Set()
      patch({
        items: [],
        total: 0,
        hiddenByConsole: 0,
        selectedId: undefined,
        detail: undefined,
        revealedView: undefined,
        exported: undefined,
        jwtChecks: undefined,
      })
    },
    async loadConformance(id) {
      const r = await api.call('exchanges.conformance', { id })
      const now = get().inspector.detail
      if (r.ok && r.value && now?.id === id) patch({ detail: { ...now, conformance: r.value } })
    },
    recordExchange(summary) {
      const { items, total } = get().inspector
      const filter = sentFilter()
      const at = items.findIndex((i) => i.id === summary.id)
      // Left out as the console's own (the rest of the filter matches): counted once, out of the list.
      if (
        summary.byConsole &&
        !matchesFilter(summary, filter) &&
        matchesFilter(summary, { ...filter, hideByConsole: false })
      ) {
        if (at >= 0) patch({ items: items.filter((i) => i.id !== summary.id), total: Math.max(0, total - 1) })
        if (!hiddenSeen.has(summary.id)) {
          hiddenSeen.add(summary.id)
          patch({ hiddenByConsole: get().inspector.hiddenByConsole + 1 })
        }
        return
      }
      if (at >= 0) {
        // The row again: its conformance check ended (the count of violations). The conformance panel of an
        // open exchange then reads its verdict (`loadConformance`).
        patch({ items: items.map((i, k) => (k === at ? summary : i)) })
        return
      }
      if (!matchesFilter(summary, filter)) return
      patch({ items: [summary, ...items].sort(newestFirst), total: total + 1 })
    },
  }
}
