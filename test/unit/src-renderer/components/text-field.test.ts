// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TextAreaField, TextField } from '../../../../src-renderer/components/text-field.tsx'
import { el } from '../support/render.ts'

afterEach(cleanup)

/** The text of what describes a control (its hint and message), or undefined when nothing does. */
const description = (control: HTMLElement) => {
  const id = control.getAttribute('aria-describedby')
  return id ? document.getElementById(id)?.textContent : undefined
}

describe('TextField', () => {
  it('is an input labelled for its id, described by its hint, with its placeholder', () => {
    render(
      el(TextField, {
        label: 'Base URL',
        hint: 'The resource server.',
        value: 'https://ob.bank.example',
        onChange: () => {},
        placeholder: 'https://…',
      }),
    )
    const input = screen.getByLabelText('Base URL') as HTMLInputElement
    expect(input.tagName).toBe('INPUT')
    expect(input.value).toBe('https://ob.bank.example')
    expect(input.placeholder).toBe('https://…')
    expect(description(input)).toBe('The resource server.')
  })

  it('is described by nothing when it has no hint or message', () => {
    render(el(TextField, { label: 'Name', value: '', onChange: () => {} }))
    expect(screen.getByLabelText('Name').hasAttribute('aria-describedby')).toBe(false)
  })

  it('hands the typed text to onChange', () => {
    const onChange = vi.fn()
    render(el(TextField, { label: 'Name', value: '', onChange }))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Bank sandbox' } })
    expect(onChange).toHaveBeenCalledWith('Bank sandbox')
  })

  it('passes the other input attributes through: type, bounds, disabled, required, aria-invalid, class', () => {
    render(
      el(TextField, {
        label: 'Days',
        value: 365,
        onChange: () => {},
        type: 'number',
        min: 1,
        max: 3650,
        disabled: true,
        required: true,
        'aria-invalid': true,
        className: 'invalid',
      }),
    )
    const input = screen.getByLabelText('Days') as HTMLInputElement
    expect([input.type, input.min, input.max, input.value]).toEqual(['number', '1', '3650', '365'])
    expect(input.disabled).toBe(true)
    expect(input.required).toBe(true)
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(input.className).toBe('invalid')
  })

  it('shows a message above its hint, both describing the input', () => {
    render(el(TextField, { label: 'Org id', value: 'x', onChange: () => {}, hint: '15 to 18.', message: 'Too short.' }))
    expect(description(screen.getByLabelText('Org id'))).toBe('Too short.15 to 18.')
  })

  it('offers its suggestions as a datalist of its own', () => {
    render(el(TextField, { label: 'alg', value: '', onChange: () => {}, suggestions: ['none', 'PS256'] }))
    const input = screen.getByLabelText('alg') as HTMLInputElement
    const list = document.getElementById(input.getAttribute('list')!)!
    expect(list.tagName).toBe('DATALIST')
    expect([...list.querySelectorAll('option')].map((o) => o.value)).toEqual(['none', 'PS256'])
  })

  it('gives its input to its ref (to focus it)', () => {
    const ref = createRef<HTMLInputElement>()
    render(el(TextField, { label: 'Returned URL', value: '', onChange: () => {}, ref }))
    expect(ref.current).toBe(screen.getByLabelText('Returned URL'))
  })

  it('has no list without suggestions', () => {
    render(el(TextField, { label: 'alg', value: '', onChange: () => {} }))
    expect(screen.getByLabelText('alg').hasAttribute('list')).toBe(false)
    expect(document.querySelector('datalist')).toBeNull()
  })
})

describe('TextAreaField', () => {
  it('is a textarea labelled for its id, described by its hint and message, its attributes passed through', () => {
    render(
      el(TextAreaField, {
        label: 'JWT',
        hint: 'Stays on this machine.',
        message: 'Not a JWT.',
        value: 'eyJ',
        onChange: () => {},
        rows: 7,
        spellCheck: false,
        className: 'mono',
        placeholder: 'paste it',
      }),
    )
    const area = screen.getByLabelText('JWT') as HTMLTextAreaElement
    expect(area.tagName).toBe('TEXTAREA')
    expect([area.value, area.getAttribute('rows'), area.className, area.placeholder]).toEqual([
      'eyJ',
      '7',
      'mono',
      'paste it',
    ])
    expect(area.getAttribute('spellcheck')).toBe('false')
    expect(description(area)).toBe('Not a JWT.Stays on this machine.')
  })

  it('hands the typed text to onChange', () => {
    const onChange = vi.fn()
    render(el(TextAreaField, { label: 'SSA', value: '', onChange }))
    fireEvent.change(screen.getByLabelText('SSA'), { target: { value: 'a\nb' } })
    expect(onChange).toHaveBeenCalledWith('a\nb')
    expect(screen.getByLabelText('SSA').hasAttribute('aria-describedby')).toBe(false)
  })
})
