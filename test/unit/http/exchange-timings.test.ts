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
})
