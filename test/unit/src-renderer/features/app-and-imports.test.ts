// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../../../src-renderer/app/app.tsx'
import { ImportMaterial } from '../../../../src-renderer/features/environments/import-forms.tsx'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi, fail, settle } from '../support/fake-api.ts'
import { localEnv, tpp } from '../support/fixtures.ts'
import { el, renderWithStore } from '../support/render.ts'

afterEach(cleanup)

const bootCalls = {
  'app.info': () => ({ version: '0.1.0', host: 'web', dataDir: '/tmp/d' }),
  'environments.list': () => [localEnv],
  'tpps.list': () => [],
  'clients.list': () => [],
  'flows.list': () => ({ flows: [], more: 0 }),
}

describe('App', () => {
  it('opens a new install on the guide, with the main navigation', async () => {
    renderWithStore(createAppStore(fakeApi(bootCalls)), el(App, {}))
    await screen.findByRole('heading', { name: 'Guided sandbox onboarding' })
    expect(screen.getByRole('button', { name: 'Guide' }).getAttribute('aria-current')).toBe('page')
    fireEvent.click(screen.getByRole('button', { name: 'Inspector' }))
    // The inspector reads the exchange list when it opens: let that answer land before the test ends.
    await settle()
    expect(screen.getByRole('button', { name: 'Inspector' }).getAttribute('aria-current')).toBe('page')
  })

  it('says how the master key is kept, in warning colour when the desktop app has no keychain', async () => {
    const detail =
      'the OS keychain is not available; the master key is kept in a file readable by this user alone (0600) instead'
    renderWithStore(
      createAppStore(
        fakeApi(
          {
            ...bootCalls,
            'app.info': () => ({
              version: '0.1.0',
              host: 'electron',
              dataDir: '/tmp/d',
              masterKey: { kind: 'key-file', detail },
            }),
          },
          'electron',
        ),
      ),
      el(App, {}),
    )
    const line = await screen.findByTestId('master-key')
    expect(line.textContent).toBe('Master key: key file (0600)')
    expect(line.getAttribute('title')).toBe(detail)
    expect(line.className).toContain('text-warn')
    cleanup()
    renderWithStore(
      createAppStore(
        fakeApi(
          {
            ...bootCalls,
            'app.info': () => ({
              version: '0.1.0',
              host: 'electron',
              dataDir: '/tmp/d',
              masterKey: { kind: 'os-keychain', detail: 'wrapped by the OS keychain (gnome_libsecret)' },
            }),
          },
          'electron',
        ),
      ),
      el(App, {}),
    )
    const wrapped = await screen.findByTestId('master-key')
    expect(wrapped.textContent).toBe('Master key: OS keychain')
    expect(wrapped.className).not.toContain('text-warn')
  })

  it('says why it cannot reach the console instead of drawing views', async () => {
    renderWithStore(
      createAppStore(
        fakeApi({
          ...bootCalls,
          'app.info': () => fail('WEB_HOST_NO_TOKEN', 'The console page was opened without its access token.'),
        }),
      ),
      el(App, {}),
    )
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain(
      'The console cannot be reached: The console page was opened without its access token.',
    )
    expect(screen.queryByRole('heading', { name: 'Guided sandbox onboarding' })).toBeNull()
  })
})

describe('ImportMaterial', () => {
  it('reads the picked files only on Import, hands them to tpps.importPem, and keeps no key material in the store', async () => {
    const api = fakeApi({ 'tpps.importPem': () => ({ ...tpp, transport: undefined }) })
    const store = createAppStore(api)
    renderWithStore(store, el(ImportMaterial, { tppId: 'tpp-1' }))
    const keyText = '-----BEGIN PRIVATE' + ' KEY-----\nMIIsecret\n-----END PRIVATE KEY-----\n'
    const certText = '-----BEGIN CERTIFICATE-----\nMIIcert\n-----END CERTIFICATE-----\n'
    const pick = (label: string, file: File) => {
      const input = screen.getByLabelText(label) as HTMLInputElement
      Object.defineProperty(input, 'files', { value: [file], configurable: true })
      fireEvent.change(input)
    }
    pick('Certificate (PEM)', new File([certText], 'transport.pem'))
    pick('Private key (PEM)', new File([keyText], 'transport.key'))
    fireEvent.change(screen.getByLabelText('Passphrase (if the key is encrypted)'), { target: { value: 'pw' } })
    expect(api.calls).toHaveLength(0)
    fireEvent.click(screen.getByRole('button', { name: 'Import' }))
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Transport (mutual TLS) imported.'))
    expect(api.callsOf('tpps.importPem')).toEqual([
      { tppId: 'tpp-1', role: 'transport', certificatePem: certText, keyPem: keyText, passphrase: 'pw' },
    ])
    expect(JSON.stringify(store.getState())).not.toContain('MIIsecret')
    expect((screen.getByLabelText('Passphrase (if the key is encrypted)') as HTMLInputElement).value).toBe('')
  })

  it("shows the engine's refusal (wrong passphrase) with its fix", async () => {
    const api = fakeApi({ 'tpps.importPem': () => fail('PASSPHRASE_WRONG', 'The key could not be decrypted.') })
    renderWithStore(createAppStore(api), el(ImportMaterial, { tppId: 'tpp-1' }))
    const input = screen.getByLabelText('Private key (PEM)') as HTMLInputElement
    Object.defineProperty(input, 'files', { value: [new File(['k'], 'k.pem')], configurable: true })
    fireEvent.click(screen.getByRole('button', { name: 'Import' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Import failed: The key could not be decrypted.')
    expect(alert.getAttribute('data-code')).toBe('PASSPHRASE_WRONG')
  })
})
