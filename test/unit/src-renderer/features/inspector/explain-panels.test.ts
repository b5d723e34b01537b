// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { JwtCheckReportDto } from '../../../../../src-main/contract/diagnosis.ts'
import type { ExchangeDto } from '../../../../../src-main/contract/exchange.ts'
import { ExchangeDetail } from '../../../../../src-renderer/features/inspector/exchange-detail.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { el, renderWithStore } from '../../support/render.ts'
import { summary } from '../../support/fixtures.ts'

afterEach(cleanup)

const refused: ExchangeDto = {
  id: 'x1',
  startedAt: '2026-11-22T10:00:00.000Z',
  request: {
    method: 'POST',
    url: 'https://127.0.0.1:8443/open-banking/v4.0/pisp/domestic-payment-consents',
    headers: [['x-jws-signature', 'eyJh..c2ln']],
  },
  response: {
    status: 400,
    headers: [['content-type', 'application/json']],
    body: { text: '{"Errors":[]}', encoding: 'utf8', size: 13, truncated: false, contentType: 'application/json' },
  },
  timings: { connect: 1, tls: 2, firstByte: 3, total: 4 },
  reusedConnection: true,
  presentedCertificate: null,
  redacted: false,
  jwts: [
    {
      location: 'request header x-jws-signature',
      header: { alg: 'PS256', kid: 'k1' },
      times: {},
      signature: 'detached',
      compact: 'eyJh..c2ln',
    },
  ],
  diagnosis: {
    outcome: 'failed',
    summary: '400: U015 UK.OBIE.Signature.Invalid bad signature.',
    error: {
      code: 'OB_ERROR',
      what: 'POST … answered 400',
      cause: 'U015 UK.OBIE.Signature.Invalid: bad signature',
      fix: 'sign the exact bytes',
      problems: [
        {
          code: 'U015 UK.OBIE.Signature.Invalid',
          message: 'bad signature',
          path: 'x-jws-signature',
          explanation: 'The x-jws-signature does not verify.',
        },
      ],
    },
    spec: [
      {
        document: 'OB Read/Write Data API Profile v4.0',
        section: 'Message Signing (x-jws-signature)',
        url: 'https://openbankinguk.github.io/x',
      },
      { document: "The bank's interface specification", section: '§7 Errors' },
    ],
  },
}
const report: JwtCheckReportDto = {
  index: 0,
  location: 'request header x-jws-signature',
  role: 'tpp-jws-signature',
  roleLabel: "the TPP's x-jws-signature: the detached signature of the request body",
  keySource: "the TPP's public signing key (kid k1)",
  rules: 'x-jws-signature',
  checks: [
    { name: 'alg', pass: true, expected: 'PS256', actual: 'PS256' },
    {
      name: 'signature',
      pass: false,
      expected: 'valid over the exact body bytes',
      actual: 'does not match the body',
      hint: 'the body was changed after signing',
    },
  ],
}

async function show(x: ExchangeDto, listed: string[] = [x.id], filter = {}) {
  const api = fakeApi({
    'exchanges.get': () => x,
    'exchanges.checkJwts': () => ({ exchangeId: x.id, reports: [report] }),
    'exchanges.list': () => ({ total: listed.length, items: listed.map((id) => summary(id)) }),
  })
  const store = createAppStore(api)
  store.setState((s) => ({ inspector: { ...s.inspector, filter, items: listed.map((id) => summary(id)) } }))
  await store.getState().openExchange(x.id)
  await settle()
  renderWithStore(store, el(ExchangeDetail, {}))
  return { api, store }
}

describe('the panel that explains an exchange', () => {
  it('shows the diagnosis: code, cause, fix, each error entry explained and the spec sections, linked when public', async () => {
    await show(refused)
    const d = screen.getByRole('region', { name: 'Diagnosis' })
    expect(d.getAttribute('data-code')).toBe('OB_ERROR')
    expect(d.textContent).toContain('✗ OB_ERROR')
    expect(d.textContent).toContain('Fix sign the exact bytes')
    expect(within(d).getByRole('list', { name: 'Error entries' }).textContent).toContain(
      'The x-jws-signature does not verify.',
    )
    expect(
      within(d)
        .getByRole('link', { name: /Message Signing/ })
        .getAttribute('href'),
    ).toBe('https://openbankinguk.github.io/x')
    expect(within(d).getByRole('list', { name: 'Spec references' }).textContent).toContain('§7 Errors')
  })

  it('checks the JWTs when the exchange opens and shows each check with the key and the role', async () => {
    const { api } = await show(refused)
    expect(api.callsOf('exchanges.checkJwts')).toEqual([{ id: 'x1' }])
    const card = screen.getByRole('article', { name: 'Checks of the JWT in request header x-jws-signature' })
    expect(card.textContent).toContain('✗ 1 fail')
    expect(card.textContent).toContain("the TPP's public signing key (kid k1)")
    expect(within(card).getByRole('group', { name: 'Checks (tpp-jws-signature)' }).textContent).toContain(
      'does not match the body',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }))
    await settle()
    expect(api.callsOf('exchanges.checkJwts')).toHaveLength(2)
  })

  it("says when the list's filter hides the exchange shown, and clears it on request", async () => {
    const { store } = await show({ ...refused, jwts: [] }, ['other'], { status: '2xx' })
    expect(screen.getByRole('region', { name: 'Exchange detail' }).getAttribute('data-exchange-id')).toBe('x1')
    expect(screen.getByText(/The list's filters hide this exchange/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }))
    await settle()
    expect(store.getState().inspector.filter).toEqual({})
  })

  it('an exchange in the list needs no note; a success says ok', async () => {
    await show({
      ...refused,
      jwts: [],
      diagnosis: { outcome: 'ok', summary: '201: answered without an error.', spec: [] },
    })
    expect(screen.queryByText(/hide this exchange/)).toBeNull()
    expect(screen.getByRole('region', { name: 'Diagnosis' }).textContent).toContain(
      '✓ ok201: answered without an error.',
    )
    expect(screen.queryByRole('region', { name: 'JWT checks' })).toBeNull()
  })
})
