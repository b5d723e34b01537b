// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { CertificateInspector } from '../../../../../src-renderer/features/environments/tpp-panel.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

/** Picks `file` in the form's file input, as a browser does. */
function pick(file: File) {
  const input = screen.getByLabelText('or a certificate file') as HTMLInputElement
  Object.defineProperty(input, 'files', { value: [file], configurable: true })
  fireEvent.change(input)
}

describe('the certificate inspector takes a file, as its fix says', () => {
  it('sends a binary DER file as one PEM certificate block, and a PEM file as it is', async () => {
    const api = fakeApi({ 'certificates.inspect': () => [] })
    renderWithStore(createAppStore(api), el(CertificateInspector, {}))
    const inspectButton = screen.getByRole('button', { name: 'Inspect' }) as HTMLButtonElement
    expect(inspectButton.disabled).toBe(true)

    const der = new Uint8Array(100).map((_, i) => (i * 7) % 256)
    pick(new File([der], 'bank.cer'))
    expect(inspectButton.disabled).toBe(false)
    fireEvent.submit(inspectButton.closest('form')!)
    await settle()
    const sent = (api.callsOf('certificates.inspect')[0] as { pem: string }).pem
    expect(sent.startsWith('-----BEGIN CERTIFICATE-----\n')).toBe(true)
    expect(sent.endsWith('\n-----END CERTIFICATE-----\n')).toBe(true)
    const body = sent.split('\n').slice(1, -2)
    expect(body.every((l) => l.length <= 64)).toBe(true)
    expect(Uint8Array.from(atob(body.join('')), (c) => c.charCodeAt(0))).toEqual(der)

    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
    pick(new File([pem], 'bank.pem'))
    fireEvent.submit(inspectButton.closest('form')!)
    await settle()
    expect((api.callsOf('certificates.inspect')[1] as { pem: string }).pem).toBe(pem)
  })
})
