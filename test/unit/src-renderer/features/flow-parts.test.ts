// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AwaitingPanel } from '../../../../src-renderer/features/flows/awaiting-panel.tsx'
import { PermissionsPicker } from '../../../../src-renderer/features/flows/permissions-picker.tsx'
import { StepCard } from '../../../../src-renderer/features/flows/step-card.tsx'
import { DEFAULT_AIS_PERMISSIONS } from '../../../../src-main/contract/ais-permissions.ts'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi, fail, settle } from '../support/fake-api.ts'
import { flow, localEnv, step, summary } from '../support/fixtures.ts'
import { el, renderWithStore } from '../support/render.ts'
import { render } from '@testing-library/react'

afterEach(cleanup)

describe('StepCard', () => {
  it('shows state, explanation, summary and checks; runs the step; opens its exchange in the inspector', async () => {
    const api = fakeApi({
      'flows.runStep': () => flow('f1', 'ais', [step('consent', 'done', { summary: 'again' })]),
      'exchanges.get': ({ id }: { id: string }) => ({ id }),
      'exchanges.list': () => ({
        total: 1,
        items: [
          summary('x1', { method: 'POST', path: '/open-banking/v4.0/aisp/account-access-consents', status: 201 }),
        ],
      }),
    })
    const store = createAppStore(api)
    await store.getState().loadExchanges()
    const s = step('consent', 'failed', {
      title: 'Account access consent',
      summary: 'consent aac-1 AWAU',
      exchangeIds: ['x1'],
      checks: [{ name: 'status', pass: false, expected: 'AWAU', actual: 'REJC' }],
      error: {
        code: 'FLOW_CHECK_FAILED',
        what: '1 check failed',
        cause: 'status: expected AWAU, got REJC',
        fix: 'See the check.',
        step: 'consent',
        exchangeId: 'x1',
      },
    })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: s, index: 2 }))
    const card = screen.getByRole('article', { name: 'Step Account access consent' })
    expect(card.getAttribute('data-status')).toBe('failed')
    expect(card.textContent).toContain('Does consent.')
    expect(card.textContent).toContain('consent aac-1 AWAU')
    expect(screen.getByRole('alert').textContent).toContain('1 check failed')
    fireEvent.click(
      screen.getByRole('button', { name: 'Open exchange POST …/account-access-consents → 201 in the inspector' }),
    )
    await settle()
    expect(store.getState().view).toBe('inspector')
    expect(store.getState().inspector.selectedId).toBe('x1')
    fireEvent.click(screen.getByRole('button', { name: 'Re-run step Account access consent' }))
    await settle()
    expect(api.callsOf('flows.runStep')).toEqual([{ flowId: 'f1', stepId: 'consent' }])
  })
})

describe('AwaitingPanel', () => {
  const awaiting = {
    stepId: 'capture',
    authorisationUrl: 'https://127.0.0.1:9/authorize?request=x',
    redirectUri: 'http://127.0.0.1:5/callback',
    state: 'st',
  }

  it('web host, loopback: a link to the bank page in a new tab; a pasted URL goes to flows.capture, a refusal is explained', async () => {
    let refuse = true
    const api = fakeApi({
      'flows.capture': () =>
        refuse
          ? fail('INVALID_INPUT', 'The pasted URL belongs to another authorisation request.')
          : flow('f1', 'ais', [step('capture', 'done')]),
    })
    const store = createAppStore(api)
    store.setState({
      environments: [localEnv],
      flowInputs: {
        f1: {
          kind: 'ais',
          environmentId: 'local-sandbox',
          clientId: 'c',
          permissions: [],
          psuPresent: true,
          capture: 'loopback',
          authorisationUrlFrom: 'request-object',
        },
      },
    })
    renderWithStore(store, el(AwaitingPanel, { flow: flow('f1', 'ais', [step('capture', 'running')], { awaiting }) }))
    const link = screen.getByRole('link', { name: "Open the bank's authorisation page" })
    expect(link.getAttribute('href')).toBe(awaiting.authorisationUrl)
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toContain('noopener')
    expect(screen.getByRole('region', { name: 'Waiting for the PSU' }).textContent).toContain(
      'picks the code up by itself',
    )
    fireEvent.change(screen.getByLabelText('Returned URL'), {
      target: { value: 'http://127.0.0.1:5/callback#state=other' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Hand the URL to the flow' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('another authorisation request'))
    refuse = false
    fireEvent.click(screen.getByRole('button', { name: 'Hand the URL to the flow' }))
    await waitFor(() => expect((screen.getByLabelText('Returned URL') as HTMLInputElement).value).toBe(''))
    expect(api.callsOf('flows.capture')).toHaveLength(2)
  })

  it('production: the deeplink as text and a QR code', async () => {
    const store = createAppStore(fakeApi({}))
    const deeplink =
      'bankapp://consent-access-request?client_id=c&response_type=code%20id_token&scope=openid%20accounts&request=eyJ'
    renderWithStore(
      store,
      el(AwaitingPanel, {
        flow: flow('f1', 'ais', [step('capture', 'running')], { awaiting: { ...awaiting, deeplink } }),
      }),
    )
    expect((screen.getByLabelText('Deeplink') as HTMLTextAreaElement).value).toBe(deeplink)
    const img = await screen.findByRole('img', { name: 'QR code of the bank app deeplink' }, { timeout: 5000 })
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
  })
})

describe('PermissionsPicker', () => {
  it('shows the v4.0 rules live as permissions are unticked', () => {
    let value = [...DEFAULT_AIS_PERMISSIONS]
    const { rerender } = render(
      el(PermissionsPicker, {
        value,
        onChange: (v: string[]) => {
          value = v
        },
      }),
    )
    fireEvent.click(screen.getByRole('checkbox', { name: /ReadAccountsDetail/ }))
    expect(value).not.toContain('ReadAccountsDetail')
    rerender(el(PermissionsPicker, { value, onChange: () => undefined }))
    const rules = screen.getByRole('list', { name: 'Permission rules' })
    expect(rules.querySelector('[data-pass="false"]')!.textContent).toContain('Add ReadAccountsDetail')
    expect(screen.getByRole('group', { name: 'Transactions' }).querySelectorAll('input').length).toBe(4)
  })
})
