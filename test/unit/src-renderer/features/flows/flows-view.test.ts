// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { FlowsView } from '../../../../../src-renderer/features/flows/flows-view.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi } from '../../support/fake-api.ts'
import { client, localEnv } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

describe('FlowsView', () => {
  it('opens the form for the client and environment a "Start a new consent" asked for, once', async () => {
    const bank = { ...localEnv, id: 'bank', name: 'A bank', kind: 'bank-sandbox' as const }
    const store = createAppStore(fakeApi({}))
    store.setState({
      environments: [localEnv, bank],
      clients: [client('local-1', 'default'), client('bank-1', 'default', 'bank'), client('bank-2', 'default', 'bank')],
    })
    store.getState().requestNewFlow({ kind: 'pis', environmentId: 'bank', clientId: 'bank-1' })
    expect(store.getState().view).toBe('flows')
    const view = renderWithStore(store, el(FlowsView, {}))
    const form = await screen.findByRole('form', { name: 'New PIS flow' })
    expect((within(form).getByLabelText('Environment') as HTMLSelectElement).value).toBe('bank')
    expect((within(form).getByLabelText('Client') as HTMLSelectElement).value).toBe('bank-1')
    expect(store.getState().flowRequest).toBeUndefined()

    // Taken once: the view opened again does not open the form again.
    view.unmount()
    renderWithStore(store, el(FlowsView, {}))
    expect(screen.queryByRole('form', { name: 'New PIS flow' })).toBeNull()

    // A new request while the view is open opens the form with that client.
    act(() => store.getState().requestNewFlow({ kind: 'ais', environmentId: 'bank', clientId: 'bank-2' }))
    const ais = await screen.findByRole('form', { name: 'New AIS flow' })
    expect((within(ais).getByLabelText('Client') as HTMLSelectElement).value).toBe('bank-2')
    fireEvent.click(screen.getByRole('button', { name: 'New AIS flow' }))
    expect(screen.queryByRole('form', { name: 'New AIS flow' })).toBeNull()
  })
})
