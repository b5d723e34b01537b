// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { StepCard } from '../../../../../src-renderer/features/flows/step-card.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { step, summary } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const consentPost = summary('x2', {
  method: 'POST',
  path: '/open-banking/v4.0/aisp/account-access-consents',
  status: 400,
})

async function storeWithExchanges() {
  const api = fakeApi({
    'exchanges.get': ({ id }: { id: string }) => ({ id }),
    'exchanges.list': () => ({ total: 2, items: [summary('x1'), consentPost] }),
  })
  const store = createAppStore(api)
  await store.getState().loadExchanges()
  return store
}

describe("the step card's error", () => {
  it('says the code inside the announced panel and opens the exchange that failed from the keyboard', async () => {
    const store = await storeWithExchanges()
    const failed = step('consent', 'failed', {
      title: 'Account access consent',
      exchangeIds: ['x1', 'x2'],
      error: {
        code: 'OB_ERROR',
        what: 'Creating the account access consent failed: 400 U002.',
        cause: 'A field is invalid.',
        fix: 'Correct the field.',
        step: 'consent',
        exchangeId: 'x2',
        details: { status: 400, exchangeId: 'x2' },
      },
    })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: failed, index: 0 }))
    const alert = screen.getByRole('alert')
    expect(alert.getAttribute('data-code')).toBe('OB_ERROR')
    expect(alert.querySelector('.step-error-code')?.textContent).toBe(
      'Code OB_ERROR in POST …/account-access-consents → 400',
    )
    const open = within(alert).getByRole('button', {
      name: 'Open the exchange where "Account access consent" failed (POST …/account-access-consents → 400) in the inspector',
    })
    // A native button: reachable with Tab, pressed with Enter or Space.
    expect(open.tagName).toBe('BUTTON')
    expect(open.getAttribute('tabindex')).toBeNull()
    open.focus()
    expect(document.activeElement).toBe(open)
    fireEvent.click(open)
    await settle()
    expect(store.getState().view).toBe('inspector')
    expect(store.getState().inspector.selectedId).toBe('x2')
  })

  it('a failure about no exchange shows its code and no exchange button', async () => {
    const store = await storeWithExchanges()
    const failed = step('consent', 'failed', {
      title: 'Account access consent',
      error: {
        code: 'FLOW_STEP_NOT_READY',
        what: '"Account access consent" cannot run yet.',
        cause: 'It needs the result of: Token.',
        fix: 'Run Token first.',
        step: 'consent',
      },
    })
    renderWithStore(store, el(StepCard, { flowId: 'f1', step: failed, index: 0 }))
    const alert = screen.getByRole('alert')
    expect(alert.querySelector('.step-error-code')?.textContent).toBe('Code FLOW_STEP_NOT_READY')
    expect(within(alert).queryByRole('button')).toBeNull()
  })
})
