// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { FileField } from '../../../../src-renderer/components/file-field.tsx'
import { el } from '../support/render.ts'

afterEach(cleanup)

describe('FileField', () => {
  it('is a file input labelled for its id, accepting what it is told, reachable through its ref', () => {
    const ref = createRef<HTMLInputElement>()
    render(el(FileField, { label: 'Certificate (PEM)', ref, accept: '.pem,.crt,.cer' }))
    const input = screen.getByLabelText('Certificate (PEM)') as HTMLInputElement
    expect([input.type, input.accept]).toEqual(['file', '.pem,.crt,.cer'])
    expect(ref.current).toBe(input)
    expect(input.hasAttribute('aria-describedby')).toBe(false)
  })

  it('is described by its hint', () => {
    render(el(FileField, { label: 'Private key (PEM)', hint: 'The page never keeps it.' }))
    const input = screen.getByLabelText('Private key (PEM)')
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
      'The page never keeps it.',
    )
  })
})
