import { ErrorPanel } from '../components/error-panel.tsx'
import { useApp } from '../store/store.ts'

/** Failures no form owns (events, background refreshes), each dismissible. */
export function Notices() {
  const notices = useApp((s) => s.notices)
  const dismiss = useApp((s) => s.dismissNotice)
  if (!notices.length) return null
  return (
    <div className="notices">
      {notices.map((n) => (
        <ErrorPanel key={n.id} title={n.title} error={n.error} onDismiss={() => dismiss(n.id)} />
      ))}
    </div>
  )
}
