import { describe, expect, it } from 'vitest'
import { exchangeTimings } from '../../../src-main/http/exchange-timings.ts'

describe('exchangeTimings', () => {
  it('a reused connection spends no connect or TLS time; first byte counts from the start', () => {
    expect(exchangeTimings(100, 130, 150, undefined, false)).toEqual({ connect: 0, tls: 0, firstByte: 30, total: 50 })
  })

  it('a new connection: DNS, connect, TLS, then first byte from when the request could go out', () => {
    const conn = {
      origin: 'https://x',
      startedAt: 100,
      lookupAt: 102,
      tcpAt: 105,
      tlsAt: 115,
      clientCertRequested: false,
    }
    expect(exchangeTimings(100, 140, 160.123, conn, true)).toEqual({
      dns: 2,
      connect: 3,
      tls: 10,
      firstByte: 25,
      total: 60.12,
    })
  })

  it('a connection opened ahead: each phase counts what the request waited for, the rest is `preconnected`', () => {
    const conn = {
      origin: 'https://x',
      startedAt: 100,
      lookupAt: 101,
      tcpAt: 104,
      tlsAt: 115,
      clientCertRequested: true,
    }
    // The request started at 110, in the middle of the TLS handshake: it waited 5 ms of it.
    expect(exchangeTimings(110, 130, 140, conn, true)).toEqual({
      dns: 0,
      connect: 0,
      tls: 5,
      firstByte: 15,
      total: 30,
      preconnected: 10,
    })
    // Started after the handshake ended: it waited for none of it.
    expect(exchangeTimings(120, 130, 140, conn, true)).toEqual({
      dns: 0,
      connect: 0,
      tls: 0,
      firstByte: 10,
      total: 20,
      preconnected: 15,
    })
  })
})
