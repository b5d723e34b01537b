// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { optionsOf, SelectField } from '../../../../src-renderer/components/select-field.tsx'
import { el } from '../support/render.ts'

afterEach(cleanup)

describe('SelectField', () => {
  const options = [
    { value: 'request-object', label: 'A request object the console signs' },
    { value: 'o3-helper', label: "The sandbox's /o3 helper", disabled: true },
  ]

  it('is a select labelled for its id, offering its options in order, some disabled', () => {
    render(el(SelectField, { label: 'Authorisation URL from', value: 'request-object', options, onChange: () => {} }))
    const select = screen.getByLabelText('Authorisation URL from') as HTMLSelectElement
    expect(select.tagName).toBe('SELECT')
    expect(select.value).toBe('request-object')
    expect([...select.options].map((o) => [o.value, o.textContent, o.disabled])).toEqual([
      ['request-object', 'A request object the console signs', false],
      ['o3-helper', "The sandbox's /o3 helper", true],
    ])
    expect(select.hasAttribute('aria-describedby')).toBe(false)
  })

  it('hands the chosen value to onChange', () => {
    const onChange = vi.fn()
    const roles = [
      { value: 'transport', label: 'Transport' },
      { value: 'signing', label: 'Signing' },
    ]
    render(el(SelectField, { label: 'Certificate role', value: 'transport', options: roles, onChange }))
    fireEvent.change(screen.getByLabelText('Certificate role'), { target: { value: 'signing' } })
    expect(onChange).toHaveBeenCalledWith('signing')
  })

  it('is described by its hint and message, and passes disabled through', () => {
    render(
      el(SelectField, {
        label: 'Kind',
        value: 'request-object',
        options,
        onChange: () => {},
        hint: 'Built in.',
        message: 'Cannot change.',
        disabled: true,
      }),
    )
    const select = screen.getByLabelText('Kind') as HTMLSelectElement
    expect(select.disabled).toBe(true)
    expect(document.getElementById(select.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Cannot change.Built in.',
    )
  })
})

describe('optionsOf', () => {
  it("makes options of a record of values to words, in the record's order", () => {
    expect(optionsOf({ pem: 'PEM files', p12: 'PKCS#12 (.p12 / .pfx)' })).toEqual([
      { value: 'pem', label: 'PEM files' },
      { value: 'p12', label: 'PKCS#12 (.p12 / .pfx)' },
    ])
  })
})
