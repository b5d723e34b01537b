import type { ReactNode } from 'react'

/** Label/value rows as a description list; empty values are left out. */
export function KeyValue({ rows, label }: { rows: Array<[string, ReactNode]>; label?: string }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '')
  return (
    <dl className="kv" aria-label={label}>
      {shown.map(([k, v]) => (
        <div key={k} className="kv-row">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  )
}
