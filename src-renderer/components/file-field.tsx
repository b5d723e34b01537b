import type { InputHTMLAttributes, Ref } from 'react'
import { Field, type FieldOwned, type FieldWords } from './field.tsx'

/**
 * A labelled file input, described by its hint: the file is read through `ref` when the form is sent (it is
 * never kept in state). The other input attributes (accept…) pass through.
 */
export function FileField({
  label,
  hint,
  message,
  ref,
  ...input
}: FieldWords &
  Omit<InputHTMLAttributes<HTMLInputElement>, FieldOwned | 'type'> & {
    ref?: Ref<HTMLInputElement>
  }) {
  return (
    <Field label={label} hint={hint} message={message}>
      {(id, describedBy) => <input id={id} aria-describedby={describedBy} ref={ref} type="file" {...input} />}
    </Field>
  )
}
