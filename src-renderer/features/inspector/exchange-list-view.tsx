import type { ExchangeSummaryDto } from '../../../src-main/contract/exchange-summaries.ts'
import { VirtualList } from '../../components/virtual-list.tsx'
import { formatBytes, formatMs, formatTime } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'

export const ROW_HEIGHT = 46

function statusClass(s: ExchangeSummaryDto): string {
  if (s.status === undefined) return 'text-fail'
  if (s.status >= 400) return 'text-fail'
  if (s.status >= 300) return 'text-warn'
  return 'text-pass'
}

/** The path without the Open Banking API prefix, so the resource shows in a narrow row. */
export function shortPath(path: string): string {
  return path.replace(/^\/open-banking\/v\d+(\.\d+)?\/(aisp|pisp)\//, '…/')
}

const VIOLATIONS_TITLE = 'Bank-conformance violations in this answer (open it: they are listed beside the body)'
const violationsLabel = (n: number) => `${n} bank-conformance violation${n === 1 ? '' : 's'}`

/** Every exchange as a fixed-height row, drawn only when in view. */
export function ExchangeList({ height }: { height: number }) {
  const items = useApp((s) => s.inspector.items)
  const selectedId = useApp((s) => s.inspector.selectedId)
  const select = useApp((s) => s.selectExchange)
  const selectedIndex = items.findIndex((i) => i.id === selectedId)
  return (
    <VirtualList
      items={items}
      rowHeight={ROW_HEIGHT}
      height={height}
      label="Exchanges"
      getKey={(i) => i.id}
      selectedIndex={selectedIndex}
      onMove={(i) => {
        const it = items[i]
        if (it) void select(it.id)
      }}
      renderRow={(s) => (
        <button
          type="button"
          className="exchange-row"
          aria-current={s.id === selectedId ? 'true' : undefined}
          onClick={() => void select(s.id)}
          data-exchange-id={s.id}
        >
          <span className="exchange-row-main">
            <span className="method">{s.method}</span>
            <span className="path" title={s.url}>
              {shortPath(s.path)}
            </span>
          </span>
          <span className="exchange-row-meta small">
            <span className={statusClass(s)}>{s.status ?? s.errorCode ?? 'no response'}</span>
            {s.violations ? (
              <span className="badge badge-fail" aria-label={violationsLabel(s.violations)} title={VIOLATIONS_TITLE}>
                {s.violations} ⚠
              </span>
            ) : null}
            <span className="muted">{formatTime(s.startedAt)}</span>
            <span className="muted">{formatMs(s.totalMs)}</span>
            <span className="muted">{formatBytes(s.responseSize)}</span>
            {s.label ? <span className="muted clip">{s.label}</span> : null}
          </span>
        </button>
      )}
    />
  )
}
