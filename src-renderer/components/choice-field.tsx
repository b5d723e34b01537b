import type { ReactNode } from 'react'
import { SelectField, type SelectOption } from './select-field.tsx'

/** One choice of a `ChoiceField`: the value sent and the words shown. */
export type Choice = SelectOption

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
    <SelectField
      label={label}
      message={message}
      value={value}
      options={[{ value: '', label: 'Choose…', disabled: true }, ...choices]}
      disabled={!choices.length}
      onChange={onChange}
    />
  )
}
