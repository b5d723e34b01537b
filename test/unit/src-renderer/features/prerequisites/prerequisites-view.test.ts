// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PrerequisitesView } from '../../../../../src-renderer/features/prerequisites/prerequisites-view.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { localEnv, tpp } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const bank = {
  ...localEnv,
  id: 'bank',
  name: 'Bank sandbox',
  kind: 'bank-sandbox' as const,
  builtIn: false,
  tppId: 'tpp-1',
}

describe('PrerequisitesView', () => {
  it("on the bank's sandbox asks for the directory JWKS, and says what could not be checked beside what fails", async () => {
    const api = fakeApi({
      'prerequisites.check': () => [
        {
          name: 'Organisation exists in the directory',
          pass: true,
          severity: 'warning',
          expected: 'registered',
          actual: "not checked: the bank's directory has no API the console can ask offline",
          hint: 'Check it in the directory.',
        },
        {
          name: "Redirect URIs within the SSA's",
          pass: false,
          expected: 'each in software_redirect_uris',
          actual: 'not in the SSA: https://x',
          hint: 'Register only redirect URIs the software statement lists.',
        },
      ],
    })
    const store = createAppStore(api)
    store.setState({ environments: [bank], tpps: [tpp] })
    renderWithStore(store, el(PrerequisitesView, {}))
    fireEvent.change(screen.getByLabelText('Directory JWKS (URL or JSON)'), {
      target: { value: ' https://dir.example/jwks ' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Check prerequisites' }))
    await settle()
    expect(api.callsOf('prerequisites.check')).toEqual([
      { tppId: 'tpp-1', environmentId: 'bank', directoryJwks: 'https://dir.example/jwks' },
    ])
    const status = screen.getByRole('status')
    expect(status.className).toBe('text-fail')
    expect(status.textContent).toContain("1 item to fix before registering: Redirect URIs within the SSA's.")
    expect(status.textContent).toContain('1 could not be checked from here.')
    expect(screen.getByRole('group', { name: 'Prerequisites' }).textContent).toContain(
      'Register only redirect URIs the software statement lists.',
    )
  })
})
