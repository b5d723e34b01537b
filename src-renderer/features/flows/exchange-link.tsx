import { useApp } from '../../store/store.ts'
import { shortPath } from '../inspector/exchange-list-view.tsx'

/**
 * A button that opens the inspector on one exchange (whatever the inspector's filter), named after the
 * request when the inspector's list or a flow's sequence diagram knows it; `role` says which exchange it is
 * ("the exchange that failed") in its accessible name.
 */
export function ExchangeLink({ id, index, role }: { id: string; index?: number; role?: string }) {
  const summary = useApp(
    (s) =>
      s.inspector.items.find((i) => i.id === id) ??
      Object.values(s.flowExchanges)
        .flat()
        .find((i) => i.id === id),
  )
  const open = useApp((s) => s.openExchange)
  const text = summary
    ? `${summary.method} ${shortPath(summary.path)}${summary.status ? ` → ${summary.status}` : summary.errorCode ? ` → ${summary.errorCode}` : ''}`
    : `exchange ${index !== undefined ? index + 1 : id.slice(0, 8)}`
  return (
    <button
      type="button"
      className="link exchange-link"
      onClick={() => void open(id)}
      aria-label={role ? `Open ${role} (${text}) in the inspector` : `Open exchange ${text} in the inspector`}
      title={summary?.label}
    >
      {text}
    </button>
  )
}
