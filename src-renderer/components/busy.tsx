/** A short "working" line with a live region so screen readers hear it. */
export function Busy({ label }: { label: string }) {
  return (
    <span className="busy" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </span>
  )
}
