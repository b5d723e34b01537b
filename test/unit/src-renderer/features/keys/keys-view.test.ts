// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KeysView } from '../../../../../src-renderer/features/keys/keys-view.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { tpp } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const generated = {
  tppId: 'tpp-new',
  subjectDn: 'CN=App1,OU=0015800001041RHAAY,O=OpenBanking,C=GB',
  transport: {
    csrPem: '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n',
    waitsForCertificate: true,
  },
  signing: { csrPem: '-----BEGIN CERTIFICATE REQUEST-----\nMIIC\n-----END CERTIFICATE REQUEST-----\n', kid: 'kid-1' },
  jwks: {
    keys: [
      { kty: 'RSA', n: 'n', e: 'AQAB', use: 'tls' },
      { kty: 'RSA', n: 'n2', e: 'AQAB', use: 'sig', alg: 'PS256', kid: 'kid-1' },
    ],
  },
}

function setup() {
  const api = fakeApi({
    'certificates.generate': () => generated,
    'tpps.list': () => [tpp, { ...tpp, id: 'tpp-new', name: 'Generated App1' }],
  })
  const store = createAppStore(api)
  store.setState({ tpps: [tpp] })
  renderWithStore(store, el(KeysView, {}))
  return api
}

describe('KeysView', () => {
  it('checks the organisation and software ids as typed, and refuses an EC signing key before asking', () => {
    setup()
    const generate = screen.getByRole('button', { name: 'Generate' }) as HTMLButtonElement
    fireEvent.change(screen.getByLabelText('Organisation id (OU)'), { target: { value: 'short' } })
    fireEvent.change(screen.getByLabelText('Software id (CN)'), { target: { value: 'App1' } })
    expect(screen.getByText(/15 to 18 letters and digits/)).toBeTruthy()
    expect(generate.disabled).toBe(true)
    fireEvent.change(screen.getByLabelText('Organisation id (OU)'), { target: { value: '0015800001041RHAAY' } })
    expect(generate.disabled).toBe(false)
    fireEvent.change(screen.getByLabelText('Key type'), { target: { value: 'EC-P256' } })
    expect(screen.getByText(/The signing key must be RSA/)).toBeTruthy()
    expect(generate.disabled).toBe(true)
  })

  it("sends the form, then offers each public part as a download under the CLI's file names", async () => {
    const api = setup()
    fireEvent.change(screen.getByLabelText('Organisation id (OU)'), { target: { value: '0015800001041RHAAY' } })
    fireEvent.change(screen.getByLabelText('Software id (CN)'), { target: { value: 'App1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }))
    await settle()
    const sent = {
      orgId: '0015800001041RHAAY',
      softwareId: 'App1',
      keyType: 'RSA-2048',
      roles: ['transport', 'signing'],
    }
    expect(api.callsOf('certificates.generate')).toEqual([sent])
    const parts = screen.getByRole('region', { name: 'Generated public parts' })
    expect(parts.textContent).toContain('OU=0015800001041RHAAY')
    expect(parts.textContent).toContain('waits for the certificate the directory issues')
    const names = [...parts.querySelectorAll('button')]
      .map((b) => b.getAttribute('aria-label'))
      .filter((n) => n?.startsWith('Download'))
    expect(names).toEqual(['Download transport.csr.pem', 'Download signing.csr.pem', 'Download public.jwks.json'])
    const created = vi.fn(() => 'blob:x')
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => undefined })
    fireEvent.click(screen.getByRole('button', { name: 'Download public.jwks.json' }))
    const blob = (created.mock.calls[0] as unknown as [Blob])[0]
    expect(JSON.parse(await blob.text())).toEqual(generated.jwks)
  })
})
