import type { ReactNode } from 'react'
import { Field } from './field.tsx'

/** One choice of a `ChoiceField`: the value sent and the words shown. */
export interface Choice {
  value: string
  label: string
}

/** Things with an id and a name (environments, TPP identities) as choices: the id sent, the name shown. */
export function byName(things: ReadonlyArray<{ id: string; name: string }>): Choice[] {
  return things.map((t) => ({ value: t.id, label: t.name }))
}

/**
 * A labelled select of named things (an environment, a TPP identity, a client), starting on a disabled
 * "Choose…" while nothing is chosen, disabled while there is nothing to choose; a message (e.g. why there is
 * nothing to choose) describes it.
 */
export function ChoiceField({
  label,
  value,
  choices,
  onChange,
  message,
}: {
  label: string
  value: string
  choices: Choice[]
  onChange: (value: string) => void
  message?: ReactNode
}) {
  return (
    <Field label={label} message={message}>
      {(id, describedBy) => (
        <select
          id={id}
          value={value}
          disabled={!choices.length}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={describedBy}
        >
          <option value="" disabled>
            Choose…
          </option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
