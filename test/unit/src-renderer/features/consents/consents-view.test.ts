// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConsentRecordDto } from '../../../../../src-main/contract/consents.ts'
import { ConsentsView } from '../../../../../src-renderer/features/consents/consents-view.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, fail } from '../../support/fake-api.ts'
import { localEnv } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const H = 3_600_000
const now = Date.now()
const ais: ConsentRecordDto = {
  consentId: 'aac-11112222',
  kind: 'ais',
  clientId: 'client-a',
  environmentId: 'local-sandbox',
  flowId: 'f1',
  createdAt: new Date(now - H).toISOString(),
  status: 'AWAU',
  expirationDateTime: new Date(now + 30 * 24 * H + 30 * 60_000).toISOString(),
  lastScaAt: new Date(now - H).toISOString(),
  scaWindowEndsAt: new Date(now - H + 90 * 24 * H).toISOString(),
}
const pis: ConsentRecordDto = {
  consentId: 'pdc-33334444',
  kind: 'pis',
  clientId: 'client-b',
  environmentId: 'local-sandbox',
  createdAt: new Date(now - 2 * H).toISOString(),
  status: 'AUTH',
}

describe('ConsentsView', () => {
  it('lists consents per client with status, expiry countdown, SCA and allowance; reads one; revokes after a confirmation', async () => {
    const status = 'AUTH'
    const api = fakeApi({
      'consents.list': () => [ais, pis],
      'consents.budget': () => [
        {
          consentId: ais.consentId,
          accountId: 'acc-1',
          endpoint: 'balances',
          used: 1,
          remaining: 3,
          historyWithoutScaFrom: new Date(now - 90 * 24 * H).toISOString(),
        },
      ],
      'consents.get': () => ({
        consent: {
          ...ais,
          status,
          permissions: ['ReadAccountsBasic', 'ReadBalances'],
          checkedAt: new Date().toISOString(),
        },
        data: { Status: status, StatusUpdateDateTime: new Date().toISOString() },
        exchangeId: 'x9',
      }),
      'consents.delete': () => ({ consent: { ...ais, status: 'Deleted' }, exchangeId: 'x10' }),
      'sandbox.clock': () => ({ now: new Date().toISOString(), offsetSeconds: 0 }),
    })
    const store = createAppStore(api)
    store.setState({ environments: [localEnv] })
    renderWithStore(store, el(ConsentsView, {}))
    const a = await screen.findByRole('article', { name: `Consent ${ais.consentId}` })
    expect(screen.getByRole('region', { name: 'Consents of client client-a' })).toBeTruthy()
    expect(screen.getByRole('region', { name: 'Consents of client client-b' })).toBeTruthy()
    expect(a.textContent).toContain('Awaiting authorisation (AWAU)')
    expect(within(a).getByLabelText('Expiry').textContent).toMatch(/\(in 30 d( \d+ h)?\)/)
    expect(within(a).getByLabelText('Last SCA').textContent).toMatch(/Last SCA .*\(1 h ago\); the 90-day window closes/)
    await waitFor(() =>
      expect(within(a).getByRole('table', { name: 'PSU-absent calls left' }).textContent).toContain('3 of 4 left'),
    )
    // A payment consent cannot be revoked (v4.0 has no DELETE for it).
    const p = screen.getByRole('article', { name: `Consent ${pis.consentId}` })
    expect(within(p).queryByRole('button', { name: /Revoke/ })).toBeNull()

    fireEvent.click(within(a).getByRole('button', { name: `Read from the bank: consent ${ais.consentId}` }))
    await waitFor(() => expect(a.textContent).toContain('Authorised (AUTH)'))
    expect(a.textContent).toContain('ReadAccountsBasic, ReadBalances')
    expect(api.callsOf('consents.get')).toEqual([{ consentId: ais.consentId }])

    fireEvent.click(within(a).getByRole('button', { name: `Revoke consent ${ais.consentId}` }))
    const confirm = within(a).getByRole('alertdialog', { name: `Confirm revoking consent ${ais.consentId}` })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }))
    expect(api.callsOf('consents.delete')).toEqual([])
    fireEvent.click(within(a).getByRole('button', { name: `Revoke consent ${ais.consentId}` }))
    fireEvent.click(within(a).getByRole('button', { name: 'Revoke it' }))
    await waitFor(() => expect(a.textContent).toContain('Revoked (deleted at the bank by this console)'))
    expect(api.callsOf('consents.delete')).toEqual([{ consentId: ais.consentId }])
    expect(within(a).queryByRole('button', { name: /Revoke/ })).toBeNull()
  })

  it("says a consent past its expiry by the sandbox's clock is expired, offers no Revoke, and starts a new consent", async () => {
    // Expires in 23 h 58 min by wall time; the sandbox's clock is 7 days ahead.
    const soon = { ...ais, status: 'AUTH', expirationDateTime: new Date(now + 23 * H + 58 * 60_000).toISOString() }
    const atBank = { ...soon, consentId: 'aac-bank', environmentId: 'bank', clientId: 'client-c' }
    const api = fakeApi({
      'consents.list': () => [soon, atBank],
      'consents.budget': () => [],
      'sandbox.clock': () => ({ now: new Date(now + 7 * 24 * H).toISOString(), offsetSeconds: 7 * 86_400 }),
    })
    const store = createAppStore(api)
    store.setState({ environments: [localEnv, { ...localEnv, id: 'bank', name: 'A bank', kind: 'bank-sandbox' }] })
    renderWithStore(store, el(ConsentsView, {}))
    const a = await screen.findByRole('article', { name: `Consent ${soon.consentId}` })
    await waitFor(() => expect(within(a).getByLabelText('Expiry').textContent).toMatch(/^Expired .* \(6 d ago\)$/))
    expect(a.textContent).toContain('Expired (the bank last said AUTH)')
    expect(a.textContent).not.toMatch(/in 23 h/)
    expect(within(a).queryByRole('button', { name: /Revoke/ })).toBeNull()

    // The same date at a bank (wall time): counting down, revocable, nothing to start again.
    const b = screen.getByRole('article', { name: 'Consent aac-bank' })
    expect(within(b).getByLabelText('Expiry').textContent).toMatch(/\(in 23 h 5\d min\)$/)
    expect(within(b).getByRole('button', { name: 'Revoke consent aac-bank' })).toBeTruthy()
    expect(within(b).queryByRole('button', { name: /Start a new consent/ })).toBeNull()

    fireEvent.click(within(a).getByRole('button', { name: 'Start a new consent for client client-a' }))
    expect(store.getState().view).toBe('flows')
    expect(store.getState().flowRequest).toMatchObject({
      kind: 'ais',
      environmentId: 'local-sandbox',
      clientId: 'client-a',
    })
  })

  it('says a consent the bank calls EXPD is expired, whatever its date', async () => {
    const expd = { ...ais, status: 'EXPD', expirationDateTime: new Date(now + 23 * H + 58 * 60_000).toISOString() }
    const store = createAppStore(
      fakeApi({
        'consents.list': () => [expd],
        'consents.budget': () => [],
        'sandbox.clock': () => ({ now: new Date(now).toISOString(), offsetSeconds: 0 }),
      }),
    )
    store.setState({ environments: [localEnv] })
    renderWithStore(store, el(ConsentsView, {}))
    const a = await screen.findByRole('article', { name: `Consent ${expd.consentId}` })
    expect(a.textContent).toContain('Expired (EXPD)')
    expect(within(a).getByLabelText('Expiry').textContent).toMatch(/^Expired: the bank says EXPD/)
    expect(a.textContent).not.toMatch(/in 23 h/)
    expect(within(a).queryByRole('button', { name: /Revoke/ })).toBeNull()
    expect(within(a).getByRole('button', { name: /Start a new consent/ })).toBeTruthy()
  })

  it('says why the list failed, and that there is none yet', async () => {
    const store = createAppStore(
      fakeApi({ 'consents.list': () => fail('STORE_ERROR', 'The console state file could not be read') }),
    )
    renderWithStore(store, el(ConsentsView, {}))
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('The console state file could not be read'),
    )
    expect(screen.getByText(/No consent yet/)).toBeTruthy()
  })
})
