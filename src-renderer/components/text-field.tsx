import type { InputHTMLAttributes, Ref, TextareaHTMLAttributes } from 'react'
import { Field, type FieldOwned, type FieldWords } from './field.tsx'

/**
 * A labelled text input (or any typed one: number, date, password…), described by its hint and message; the
 * other input attributes (placeholder, disabled, required, min, inputMode, aria-invalid…) pass through.
 * `suggestions` offer values to pick from (a datalist) while any text may still be typed; `ref` reaches the
 * input (to focus it).
 */
export function TextField({
  label,
  hint,
  message,
  value,
  onChange,
  suggestions,
  ref,
  ...input
}: FieldWords &
  Omit<InputHTMLAttributes<HTMLInputElement>, FieldOwned | 'list'> & {
    value: string | number
    onChange: (value: string) => void
    suggestions?: readonly string[]
    ref?: Ref<HTMLInputElement>
  }) {
  return (
    <Field label={label} hint={hint} message={message}>
      {(id, describedBy) => (
        <>
          <input
            id={id}
            ref={ref}
            aria-describedby={describedBy}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            list={suggestions ? `${id}-list` : undefined}
            {...input}
          />
          {suggestions ? (
            <datalist id={`${id}-list`}>
              {suggestions.map((o) => (
                <option key={o} value={o} />
              ))}
            </datalist>
          ) : null}
        </>
      )}
    </Field>
  )
}

/** A labelled textarea, described by its hint and message; the other textarea attributes pass through. */
export function TextAreaField({
  label,
  hint,
  message,
  value,
  onChange,
  ...textarea
}: FieldWords &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, FieldOwned> & {
    value: string
    onChange: (value: string) => void
  }) {
  return (
    <Field label={label} hint={hint} message={message}>
      {(id, describedBy) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...textarea}
        />
      )}
    </Field>
  )
}
