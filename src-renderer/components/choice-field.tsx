import { Field } from './field.tsx'

/** One choice of a `ChoiceField`: the value sent and the words shown. */
export interface Choice {
  value: string
  label: string
}

/**
 * A labelled select of named things (an environment, a TPP identity), starting on a disabled "Choose…"
 * while nothing is chosen.
 */
export function ChoiceField({
  label,
  value,
  choices,
  onChange,
}: {
  label: string
  value: string
  choices: Choice[]
  onChange: (value: string) => void
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
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
