import type { SelectHTMLAttributes } from 'react'
import { Field, type FieldOwned, type FieldWords } from './field.tsx'

/** One option of a `SelectField`: the value sent, the words shown, and whether it may be chosen. */
export interface SelectOption<V extends string = string> {
  value: V
  label: string
  disabled?: boolean
}

/** Options from a record of values to the words shown, in the record's order. */
export function optionsOf<V extends string>(labels: Readonly<Record<V, string>>): Array<SelectOption<V>> {
  return (Object.keys(labels) as V[]).map((value) => ({ value, label: labels[value] }))
}

/**
 * A labelled select of the given options, in their order, described by its hint and message; the value chosen
 * reaches `onChange` as one of the options' values. The other select attributes (disabled…) pass through.
 */
export function SelectField<V extends string>({
  label,
  hint,
  message,
  value,
  options,
  onChange,
  ...select
}: FieldWords &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, FieldOwned | 'multiple'> & {
    value: V
    options: ReadonlyArray<SelectOption<V>>
    onChange: (value: V) => void
  }) {
  return (
    <Field label={label} hint={hint} message={message}>
      {(id, describedBy) => (
        <select
          id={id}
          aria-describedby={describedBy}
          value={value}
          onChange={(e) => onChange(e.target.value as V)}
          {...select}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={o.disabled}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
