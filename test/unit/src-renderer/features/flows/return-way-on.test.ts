// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AisFlowInput } from '../../../../../src-main/contract/api.ts'
import { AwaitingPanel } from '../../../../../src-renderer/features/flows/awaiting-panel.tsx'
import { StepCard } from '../../../../../src-renderer/features/flows/step-card.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { Fail, fakeApi } from '../../support/fake-api.ts'
import { flow, localEnv, step } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const awaiting = {
  stepId: 'capture',
  authorisationUrl: 'https://127.0.0.1:9/authorize?request=x',
  redirectUri: 'ob-console://oauth/callback',
  state: 'st',
}
const input: AisFlowInput = {
  kind: 'ais',
  environmentId: 'local-sandbox',
  clientId: 'c-1',
  permissions: ['ReadAccountsBasic'],
  psuPresent: true,
  capture: 'deeplink',
  authorisationUrlFrom: 'request-object',
}
const refusal = (code: string, details: Record<string, string>) =>
  new Fail({ code, what: `${code} happened`, cause: 'because', fix: 'do this', details })

describe('the way on from a broken or refused return', () => {
  it('browser face: the paste field comes before the link; a mangled URL offers "Paste again", which clears and focuses the field', async () => {
    const api = fakeApi({ 'flows.capture': () => refusal('AUTH_RETURN_NO_CODE', { wayOn: 'paste-again' }) })
    const store = createAppStore(api)
    store.setState({ environments: [localEnv], flowInputs: { f1: input } })
    renderWithStore(store, el(AwaitingPanel, { flow: flow('f1', 'ais', [step('capture', 'running')], { awaiting }) }))
    const field = screen.getByLabelText('Returned URL') as HTMLInputElement
    const link = screen.getByRole('link', { name: "Open the bank's authorisation page" })
    expect(field.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Waiting for the PSU' }).textContent).toContain('has nowhere to go')
    fireEvent.change(field, { target: { value: 'ob-console://oauth/callback' } })
    fireEvent.click(screen.getByRole('button', { name: 'Hand the URL to the flow' }))
    await waitFor(() => expect(screen.getByRole('alert').getAttribute('data-code')).toBe('AUTH_RETURN_NO_CODE'))
    fireEvent.click(screen.getByRole('button', { name: 'Paste again' }))
    expect(field.value).toBe('')
    expect(document.activeElement).toBe(field)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('a return of another waiting flow: handed to that flow with one click', async () => {
    let calls = 0
    const api = fakeApi({
      'flows.capture': ({ flowId }: { flowId: string }) =>
        calls++ === 0
          ? refusal('AUTH_RETURN_OTHER_FLOW', { wayOn: 'other-flow', otherFlowId: 'f2-other' })
          : flow(flowId, 'ais', [step('capture', 'done')]),
    })
    const store = createAppStore(api)
    store.setState({ environments: [localEnv], flowInputs: { f1: input } })
    renderWithStore(store, el(AwaitingPanel, { flow: flow('f1', 'ais', [step('capture', 'running')], { awaiting }) }))
    const url = 'ob-console://oauth/callback#code=c&id_token=a.b.c&state=other'
    fireEvent.change(screen.getByLabelText('Returned URL'), { target: { value: url } })
    fireEvent.click(screen.getByRole('button', { name: 'Hand the URL to the flow' }))
    fireEvent.click(await screen.findByRole('button', { name: /^Hand it to flow f2-other/ }))
    await waitFor(() => expect(store.getState().activeFlowId).toBe('f2-other'))
    expect(api.callsOf('flows.capture')).toEqual([
      { flowId: 'f1', url },
      { flowId: 'f2-other', url },
    ])
  })

  it('the PSU refused: "Start a new consent" starts a new flow with the same input and runs it (not the same consent again)', async () => {
    const api = fakeApi({
      'flows.start': () => flow('f-new', 'ais', [step('consent')]),
      'flows.runAll': () => flow('f-new', 'ais', [step('consent', 'done')]),
    })
    const store = createAppStore(api)
    store.setState({ flowInputs: { f1: input } })
    const failed = step('capture', 'failed', {
      title: 'PSU authorisation',
      error: {
        code: 'AUTH_RETURN_ERROR',
        step: 'capture',
        what: 'The bank returned error=access_denied.',
        cause: 'refused',
        fix: 'Start a new consent',
        details: { wayOn: 'new-consent' },
      },
    })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: failed, index: 4 }))
    fireEvent.click(screen.getByRole('button', { name: 'Start a new consent' }))
    await waitFor(() => expect(api.callsOf('flows.runAll')).toEqual([{ flowId: 'f-new' }]))
    expect(api.callsOf('flows.start')).toEqual([input])
    expect(api.callsOf('flows.runStep')).toEqual([])
  })

  it('the ID token failed its checks: "Start a new consent" from the failed step; a failed check with no way on offers none', async () => {
    const api = fakeApi({
      'flows.start': () => flow('f-new', 'ais', [step('consent')]),
      'flows.runAll': () => flow('f-new', 'ais', [step('consent', 'done')]),
    })
    const store = createAppStore(api)
    store.setState({ flowInputs: { f1: input } })
    const failed = (details?: Record<string, string>) =>
      step('id-token', 'failed', {
        title: 'ID token checks',
        error: {
          code: 'FLOW_CHECK_FAILED',
          step: 'id-token',
          what: '1 check of "ID token checks" failed: nonce.',
          cause: 'nonce: expected n-1, got n-2',
          fix: "Do not use this return's authorisation code. Start a new consent.",
          ...(details ? { details } : {}),
        },
      })
    const view = renderWithStore(
      store,
      el(StepCard, { flowId: 'f1', step: failed({ wayOn: 'new-consent' }), index: 5 }),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Start a new consent' }))
    await waitFor(() => expect(api.callsOf('flows.runAll')).toEqual([{ flowId: 'f-new' }]))
    expect(api.callsOf('flows.start')).toEqual([input])
    view.unmount()
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: failed(), index: 5 }))
    expect(screen.queryByRole('button', { name: 'Start a new consent' })).toBeNull()
  })

  it('a return cut on the way (no capture to paste into): "Authorise again" re-runs the authorisation URL, then the rest', async () => {
    const api = fakeApi({
      'flows.runStep': () => flow('f1', 'ais', [step('authorisation-url', 'done')]),
      'flows.runAll': () => flow('f1', 'ais', [step('capture', 'done')]),
    })
    const store = createAppStore(api)
    const failed = step('capture', 'failed', {
      title: 'PSU authorisation',
      error: {
        code: 'AUTH_RETURN_CODE_IN_QUERY',
        step: 'capture',
        what: 'in the query',
        cause: 'c',
        fix: 'f',
        details: { wayOn: 'authorise-again' },
      },
    })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: failed, index: 4 }))
    fireEvent.click(screen.getByRole('button', { name: /^Authorise again/ }))
    await waitFor(() => expect(api.callsOf('flows.runAll')).toEqual([{ flowId: 'f1' }]))
    expect(api.callsOf('flows.runStep')).toEqual([{ flowId: 'f1', stepId: 'authorisation-url' }])
  })
})

describe('the PSU-absent allowance on a step card, before it runs', () => {
  it('asks the main side what the step would spend and says it per call', async () => {
    const api = fakeApi({
      'ais.budgetBefore': () => [
        {
          consentId: 'aac-1',
          accountId: 'acc-1',
          endpoint: 'balances',
          used: 0,
          remaining: 4,
          historyWithoutScaFrom: '',
          keying: 'consent-account-endpoint',
        },
        {
          consentId: 'aac-1',
          accountId: 'acc-2',
          endpoint: 'balances',
          used: 4,
          remaining: 0,
          nextReturnAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
          historyWithoutScaFrom: '',
          keying: 'consent-account-endpoint',
        },
      ],
    })
    const store = createAppStore(api)
    const s = step('balances', 'idle', { title: 'Balances' })
    store.setState({ flows: { f1: flow('f1', 'ais', [step('consent', 'done'), step('accounts', 'done'), s]) } })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: s, index: 8 }))
    const note = await screen.findByRole('note', { name: 'PSU-absent allowance before Balances' })
    expect(note.textContent).toContain('Before it runs')
    expect(note.textContent).toContain('This call spends 1 of the 4 accesses to /accounts/acc-1/balances left today')
    expect(note.textContent).toMatch(/No accesses to \/accounts\/acc-2\/balances left today .* \(in (1 h 59 min|2 h)\)/)
    expect(api.callsOf('ais.budgetBefore')).toContainEqual({ flowId: 'f1', stepId: 'balances' })
  })

  it('shows nothing for a step that spends none', async () => {
    const api = fakeApi({ 'ais.budgetBefore': () => [] })
    const store = createAppStore(api)
    const s = step('id-token', 'idle')
    store.setState({ flows: { f1: flow('f1', 'ais', [s]) } })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: s, index: 5 }))
    expect(screen.queryByRole('note')).toBeNull()
    expect(api.callsOf('ais.budgetBefore')).toEqual([])
  })
})
