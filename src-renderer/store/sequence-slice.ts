/**
 * The exchanges of each flow whose sequence diagram is open: loaded once, then kept live by
 * `exchanges.onDidRecord` (independent of the inspector's filter).
 */
import type { ExchangeSummaryDto } from '../../src-main/contract/exchange-summaries.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

/** How many exchanges of one flow the diagram reads at most. */
export const FLOW_EXCHANGES_LIMIT = 2000

export interface SequenceSlice {
  /** Exchange summaries per flow, oldest first; only flows whose diagram was opened. */
  flowExchanges: Record<string, ExchangeSummaryDto[]>
  loadFlowExchanges(flowId: string): Promise<void>
  /** Live: one exchange was recorded; kept when its flow's diagram was loaded. */
  recordFlowExchange(summary: ExchangeSummaryDto): void
}

const oldestFirst = (a: ExchangeSummaryDto, b: ExchangeSummaryDto) =>
  a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id)

export function sequenceSlice({ set, get, api }: SliceDeps): SequenceSlice {
  return {
    flowExchanges: {},
    async loadFlowExchanges(flowId) {
      const page = await runOp(set, `exchanges.list:${flowId}`, () =>
        api.call('exchanges.list', { flowId, offset: 0, limit: FLOW_EXCHANGES_LIMIT }),
      )
      if (!page) return
      // Keep what arrived live while the list was in flight.
      const live = get().flowExchanges[flowId] ?? []
      const merged = [...page.items, ...live.filter((l) => !page.items.some((i) => i.id === l.id))].sort(oldestFirst)
      set((s) => ({ flowExchanges: { ...s.flowExchanges, [flowId]: merged } }))
    },
    recordFlowExchange(summary) {
      const flowId = summary.flowId
      if (!flowId) return
      const known = get().flowExchanges[flowId]
      if (!known || known.some((k) => k.id === summary.id)) return
      set((s) => ({ flowExchanges: { ...s.flowExchanges, [flowId]: [...known, summary].sort(oldestFirst) } }))
    },
  }
}
