import { useId, type ReactElement, type ReactNode } from 'react'

/** The words around a labelled control: its label, a hint under it and a per-field message (e.g. a failing check). */
export interface FieldWords {
  label: string
  hint?: ReactNode
  message?: ReactNode
}

/** What a labelled control's own props may not set: its `Field` gives the id and the description. */
export type FieldOwned = 'id' | 'aria-describedby' | 'value' | 'onChange' | 'children'

/**
 * A labelled form control: the label is tied to the control (accessible name), a hint and a per-field
 * message (e.g. a failing check) sit under it.
 */
export function Field({
  label,
  hint,
  message,
  messageKind = 'fail',
  children,
}: FieldWords & {
  messageKind?: 'fail' | 'pass'
  children: (id: string, describedBy: string | undefined) => ReactElement
}) {
  const id = useId()
  const describedBy = hint || message ? `${id}-desc` : undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {hint || message ? (
        <div id={describedBy} className="field-desc">
          {message ? <div className={`field-message text-${messageKind}`}>{message}</div> : null}
          {hint ? <div className="muted small">{hint}</div> : null}
        </div>
      ) : null}
    </div>
  )
}
