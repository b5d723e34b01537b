// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { byName, ChoiceField } from '../../../../src-renderer/components/choice-field.tsx'
import { el } from '../support/render.ts'

afterEach(cleanup)

describe('ChoiceField', () => {
  const choices = [
    { value: 'local', label: 'Local sandbox' },
    { value: 'bank', label: 'Bank sandbox' },
  ]

  it('starts on a disabled "Choose…" while nothing is chosen, labelled for its select', () => {
    render(el(ChoiceField, { label: 'Environment', value: '', choices, onChange: () => {} }))
    const select = screen.getByLabelText('Environment') as HTMLSelectElement
    expect(select.value).toBe('')
    expect([...select.options].map((o) => [o.textContent, o.disabled])).toEqual([
      ['Choose…', true],
      ['Local sandbox', false],
      ['Bank sandbox', false],
    ])
  })

  it('hands the chosen value to onChange', () => {
    const onChange = vi.fn()
    render(el(ChoiceField, { label: 'Environment', value: 'local', choices, onChange }))
    fireEvent.change(screen.getByLabelText('Environment'), { target: { value: 'bank' } })
    expect(onChange).toHaveBeenCalledWith('bank')
  })

  it('is disabled while there is nothing to choose, described by its message', () => {
    render(
      el(ChoiceField, { label: 'Client', value: '', choices: [], onChange: () => {}, message: 'Register one first.' }),
    )
    const select = screen.getByLabelText('Client') as HTMLSelectElement
    expect(select.disabled).toBe(true)
    expect(document.getElementById(select.getAttribute('aria-describedby')!)?.textContent).toBe('Register one first.')
  })

  it('offers named things by id, showing their names', () => {
    const environments = [{ id: 'e1', name: 'Bank sandbox', kind: 'bank-sandbox' }]
    expect(byName(environments)).toEqual([{ value: 'e1', label: 'Bank sandbox' }])
  })
})
