// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { BodyDto, ExchangeDto } from '../../../../../src-main/contract/exchange.ts'
import { ExchangeDetail } from '../../../../../src-renderer/features/inspector/exchange-detail.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

function exchange(id: string, body: BodyDto): ExchangeDto {
  return {
    id,
    startedAt: '2026-11-22T10:00:00.000Z',
    label: 'transactions p1',
    request: {
      method: 'GET',
      url: 'https://127.0.0.1:8443/open-banking/v4.0/aisp/accounts/a1/transactions',
      headers: [['accept', 'application/json']],
    },
    response: { status: 200, headers: [['content-type', 'application/json']], body },
    timings: { connect: 1, tls: 2, firstByte: 3, total: 4 },
    reusedConnection: true,
    presentedCertificate: null,
    jwts: [],
    redacted: true,
  }
}

async function show(x: ExchangeDto) {
  const store = createAppStore(fakeApi({ 'exchanges.get': () => x }))
  await store.getState().selectExchange(x.id)
  await settle()
  renderWithStore(store, el(ExchangeDetail, {}))
}

describe('ExchangeDetail', () => {
  const reason =
    'no longer kept: the exchange log keeps the newest 64 MiB of bodies as received and about 96 MiB more compressed, and newer exchanges used that room; re-run the step to see it'

  it('says a body the log no longer keeps is gone, with its size and what to do, instead of an empty editor', async () => {
    await show(
      exchange('x1', {
        text: '',
        encoding: 'utf8',
        size: 77_464,
        truncated: false,
        contentType: 'application/json',
        dropped: { reason },
      }),
    )
    const note = screen.getByRole('note', { name: 'Response body' })
    expect(note.textContent).toBe(`75.6 KB · application/json · This body is ${reason}`)
    expect(screen.queryByRole('region', { name: 'Response body' })).toBeNull()
    expect(screen.queryByText('No body.')).toBeNull()
  })

  it('shows a kept body in the code view', async () => {
    await show(
      exchange('x2', {
        text: '{"Data":{"Balance":[]}}',
        encoding: 'utf8',
        size: 23,
        truncated: false,
        contentType: 'application/json',
      }),
    )
    expect(screen.queryByRole('note', { name: 'Response body' })).toBeNull()
    expect(screen.getByLabelText('Response body').textContent).toContain('"Balance"')
  })
})

describe('ExchangeDetail secrets', () => {
  it('lists the masked secrets with one Reveal each (none for a private key), shows the one asked for until Mask again', async () => {
    const masked: ExchangeDto = {
      ...exchange('x3', {
        text: '{"access_token":"abcdefgh…12345678","signingKeyPem":"[private key removed]"}',
        encoding: 'utf8',
        size: 80,
        truncated: false,
        contentType: 'application/json',
      }),
      secrets: [
        {
          ref: 'r-token',
          kind: 'token',
          name: 'access_token',
          where: 'response body',
          shown: 'abcdefgh…12345678',
          revealed: false,
          revealable: true,
        },
        {
          ref: 'r-key',
          kind: 'private-key',
          name: 'signingKeyPem',
          where: 'response body',
          shown: '[private key removed]',
          revealed: false,
          revealable: false,
        },
      ],
    }
    const revealed: ExchangeDto = {
      ...masked,
      response: {
        ...masked.response!,
        body: {
          ...masked.response!.body!,
          text: '{"access_token":"abcdefgh-the-whole-token-12345678","signingKeyPem":"[private key removed]"}',
        },
      },
      secrets: [
        { ...masked.secrets![0]!, revealed: true, shown: 'abcdefgh-the-whole-token-12345678' },
        masked.secrets![1]!,
      ],
    }
    const api = fakeApi({
      'exchanges.get': ({ reveal }: { reveal?: string[] }) => (reveal?.includes('r-token') ? revealed : masked),
      'secrets.reveal': ({ ref }: { ref: string }) => ({ value: 'abcdefgh-the-whole-token-12345678', item: { ref } }),
    })
    const store = createAppStore(api)
    await store.getState().selectExchange('x3')
    await settle()
    renderWithStore(store, el(ExchangeDetail, {}))
    const list = () => screen.getByRole('table', { name: 'Secrets in this exchange' })
    expect(list().textContent).toContain('abcdefgh…12345678')
    expect(list().textContent).toContain('never shown')
    expect(screen.queryByRole('button', { name: /Reveal signingKeyPem/ })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Mask/ })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Reveal access_token (response body)' }))
    await settle()
    expect(api.callsOf('secrets.reveal')).toEqual([{ exchangeId: 'x3', ref: 'r-token' }])
    expect(list().textContent).toContain('abcdefgh-the-whole-token-12345678')
    expect(screen.getByLabelText('Response body').textContent).toContain('abcdefgh-the-whole-token-12345678')
    // Mask again: the list and the body are masked at once, and the Reveal button is back.
    fireEvent.click(screen.getByRole('button', { name: 'Mask access_token (response body) again' }))
    expect(list().textContent).not.toContain('abcdefgh-the-whole-token-12345678')
    expect(screen.getByLabelText('Response body').textContent).not.toContain('abcdefgh-the-whole-token-12345678')
    expect(screen.getByRole('button', { name: 'Reveal access_token (response body)' })).toBeTruthy()
    expect(store.getState().revealed).toEqual({})
    // Revealed again, then the detail leaves the screen (another view): masked.
    fireEvent.click(screen.getByRole('button', { name: 'Reveal access_token (response body)' }))
    await settle()
    expect(store.getState().revealed['exchange:x3']).toBeDefined()
    cleanup()
    expect(store.getState().revealed).toEqual({})
  })
})

describe('Tls: the client certificate on a resumed session', () => {
  it('says the certificate was not sent again because the session was resumed, not that the server did not ask', async () => {
    const { Tls } = await import('../../../../../src-renderer/features/inspector/exchange-parts.tsx')
    const x = (sessionResumed: boolean): ExchangeDto => ({
      ...exchange('t1', { text: '{}', size: 2, truncated: false, encoding: 'utf8' } as BodyDto),
      tls: { protocol: 'TLSv1.3', verification: 'on', clientCertificateRequested: false, sessionResumed },
      presentedCertificate: { subjectDn: 'CN=App1', thumbprint: 'abc', sent: false },
    })
    const resumed = renderWithStore(createAppStore(fakeApi({})), el(Tls, { exchange: x(true) }))
    expect(resumed.container.textContent).toContain('not again: the TLS session was resumed')
    resumed.unmount()
    const full = renderWithStore(createAppStore(fakeApi({})), el(Tls, { exchange: x(false) }))
    expect(full.container.textContent).toContain('no: the server did not ask')
  })
})

describe('Timings: a connection opened ahead of its request', () => {
  it('says how much of its setup came before the request, and that the bars show only what it waited for', async () => {
    const { Timings } = await import('../../../../../src-renderer/features/inspector/exchange-parts.tsx')
    const x = (preconnected?: number): ExchangeDto => ({
      ...exchange('t2', { text: '{}', size: 2, truncated: false, encoding: 'utf8' } as BodyDto),
      reusedConnection: false,
      timings: { connect: 0, tls: 1, firstByte: 3, total: 5, ...(preconnected !== undefined ? { preconnected } : {}) },
    })
    const ahead = renderWithStore(createAppStore(fakeApi({})), el(Timings, { exchange: x(7.4) }))
    expect(ahead.container.textContent).toContain(
      'New connection, opened while the request was prepared: 7 ms of its setup came before the request',
    )
    ahead.unmount()
    const plain = renderWithStore(createAppStore(fakeApi({})), el(Timings, { exchange: x() }))
    expect(plain.container.textContent).toContain('New connection.')
    expect(plain.container.textContent).not.toContain('opened while')
  })
})
