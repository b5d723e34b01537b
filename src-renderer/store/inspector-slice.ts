/**
 * The inspector: every HTTP exchange (filtered by flow, status, path), live as they are recorded, and
 * the selected one in full (secrets masked by the main side; the user reveals them one at a time), exportable
 * as curl or HAR (which show what was revealed, and nothing else), with its JWTs checked by role. An exchange
 * opened from elsewhere (a step card, the sequence diagram) is shown whatever the filter: the detail does
 * not depend on the list.
 */
import type { JwtCheckReportDto } from '../../src-main/contract/diagnosis.ts'
import type { ExchangeDto } from '../../src-main/contract/exchange.ts'
import type { ExchangeFilter, ExchangeSummaryDto } from '../../src-main/contract/exchange-summaries.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

/** How many summaries one list call fetches. */
export const EXCHANGE_PAGE = 500

export interface InspectorState {
  filter: ExchangeFilter
  /** Newest first. */
  items: ExchangeSummaryDto[]
  total: number
  selectedId?: string
  detail?: ExchangeDto
  exported?: { id: string; format: 'curl' | 'har'; text: string }
  /** The JWT checks of an exchange (`exchanges.checkJwts`), made when it is selected. */
  jwtChecks?: { id: string; reports: JwtCheckReportDto[] }
}

export interface InspectorSlice {
  inspector: InspectorState
  loadExchanges(more?: boolean): Promise<void>
  setExchangeFilter(patch: Partial<ExchangeFilter>): Promise<void>
  selectExchange(id: string | undefined): Promise<void>
  /**
   * Opens the inspector view on one exchange (from a flow step, the sequence diagram, the guide): its detail
   * shows whatever the list's filter; the view says when the filter hides it from the list.
   */
  openExchange(id: string): Promise<void>
  /** Drops every filter and reads the list again (so an exchange opened from elsewhere shows in it). */
  clearExchangeFilters(): Promise<void>
  /** Checks every JWT of the selected exchange by its role (`exchanges.checkJwts`). */
  checkJwts(): Promise<void>
  /** Reveals one secret of the selected exchange (its ref from `detail.secrets`); the view and any export then show it. */
  revealSecret(ref: string): Promise<void>
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
  return {
    inspector: { filter: {}, items: [], total: 0 },
    async loadExchanges(more = false) {
      const { filter, items } = get().inspector
      const mine = ++listSeq
      const offset = more ? items.length : 0
      const page = await runOp(set, 'exchanges.list', () =>
        api.call('exchanges.list', { ...filter, offset, limit: EXCHANGE_PAGE }),
      )
      if (!page || mine !== listSeq) return
      const merged = more ? [...items, ...page.items.filter((i) => !items.some((x) => x.id === i.id))] : page.items
      patch({ items: [...merged].sort(newestFirst), total: page.total })
    },
    async setExchangeFilter(p) {
      const filter = { ...get().inspector.filter, ...p }
      for (const k of Object.keys(filter) as Array<keyof typeof filter>)
        if (filter[k] === undefined || filter[k] === '') delete filter[k]
      patch({ filter })
      await get().loadExchanges()
    },
    async selectExchange(id) {
      patch({ selectedId: id, exported: undefined, ...(id ? {} : { detail: undefined }) })
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
      patch({ filter: {} })
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
      const revealed = await runOp(set, 'secrets.reveal', () => api.call('secrets.reveal', { exchangeId: id, ref }))
      if (!revealed || get().inspector.selectedId !== id) return
      const exported = get().inspector.exported
      const detail = await runOp(set, 'exchanges.get', () => api.call('exchanges.get', { id }))
      if (detail && get().inspector.selectedId === id) patch({ detail })
      // An export on screen is made again, so it shows what was just revealed.
      if (exported?.id === id) await get().exportExchange(exported.format)
    },
    async exportExchange(format) {
      const id = get().inspector.selectedId
      if (!id) return undefined
      const text = await runOp(set, 'exchanges.export', () => api.call('exchanges.export', { id, format }))
      if (text !== undefined) patch({ exported: { id, format, text } })
      return text
    },
    async exportShownHar() {
      const { filter } = get().inspector
      const { offset: _offset, limit: _limit, ...shown } = filter
      return runOp(set, 'exchanges.har', () => api.call('exchanges.har', shown))
    },
    async exportShownPostman(name) {
      const { offset: _offset, limit: _limit, ...shown } = get().inspector.filter
      return runOp(set, 'exchanges.postman', () => api.call('exchanges.postman', { ...shown, name }))
    },
    async clearExchanges() {
      await runOp(set, 'exchanges.clear', () => api.call('exchanges.clear'))
      if (get().ops['exchanges.clear']?.error) return
      patch({
        items: [],
        total: 0,
        selectedId: undefined,
        detail: undefined,
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
      const { items, filter, total } = get().inspector
      const at = items.findIndex((i) => i.id === summary.id)
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
