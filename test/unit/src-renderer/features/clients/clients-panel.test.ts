// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ClientsPanel } from '../../../../../src-renderer/features/clients/clients-panel.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { client } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('ClientsPanel', () => {
  it('marks the current client, makes another current, and after deleting the current one says none is', async () => {
    let current: string | undefined = 'c-1'
    const api = fakeApi({
      'clients.current': () => (current ? { clientId: current } : {}),
      'clients.setCurrent': ({ clientId }: { clientId: string }) => {
        current = clientId
      },
      'registration.delete': ({ clientId }: { clientId: string }) => {
        if (current === clientId) current = undefined
        return { exchangeId: 'x-del' }
      },
    })
    const store = createAppStore(api)
    store.setState({ clients: [client('c-1', 'strict'), client('c-2', 'strict'), client('c-other', 'strict', 'bank')] })
    renderWithStore(store, el(ClientsPanel, { environmentId: 'local-sandbox' }))
    await settle()
    const table = screen.getByRole('table', { name: 'Registered clients' })
    expect(table.querySelectorAll('tbody tr[data-client]')).toHaveLength(2)
    expect(screen.getByLabelText('Client c-1 is current')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Make client c-2 current' }))
    await settle()
    expect(api.callsOf('clients.setCurrent')).toEqual([{ environmentId: 'local-sandbox', clientId: 'c-2' }])
    expect(screen.getByLabelText('Client c-2 is current')).toBeTruthy()
    expect(screen.queryByLabelText('Client c-1 is current')).toBeNull()
    // The console's own confirmation: focus on its safe choice, Escape keeps the client, "Delete it" deletes.
    fireEvent.click(screen.getByRole('button', { name: 'Delete client c-2' }))
    await settle()
    let dialog = screen.getByRole('alertdialog', { name: 'Confirm deleting client c-2' })
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }))
    fireEvent.keyDown(dialog, { key: 'Escape' })
    await settle()
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(api.callsOf('registration.delete')).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Delete client c-2' }))
    await settle()
    dialog = screen.getByRole('alertdialog', { name: 'Confirm deleting client c-2' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete it' }))
    await settle()
    expect(table.querySelectorAll('tbody tr[data-client]')).toHaveLength(1)
    expect(screen.getByRole('region', { name: 'Clients of the environment' }).textContent).toContain(
      'No client is marked current',
    )
  })
})
