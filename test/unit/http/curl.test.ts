import { describe, expect, it } from 'vitest'
import { FULLY_MASKED } from '../../../src-main/core/redact.ts'
import { shellQuote, toCurl } from '../../../src-main/http/curl.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { tokenExchange } from './exchange-fixture.ts'

describe('toCurl', () => {
  it('quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
  })

  it('writes a masked command with the TLS options, honouring each secret revealed, and a runnable one once all are', () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange())
    const masked = toCurl(log.get(id), { caPath: 'ca-bundle.pem' })
    expect(masked.split('\n')[0]).toMatch(/^# secrets are masked/)
    expect(masked).toContain(`curl -sS -X POST 'https://127.0.0.1:8443/token' -H 'content-type: application/x-www-form-urlencoded' -H 'authorization: Basic ${FULLY_MASKED}'`)
    expect(masked).toContain("--cert 'transport.pem' --key 'transport.key' --cacert 'ca-bundle.pem'")
    const items = log.get(id).secrets!
    log.reveal(id, items.find((s) => s.name === 'authorization')!.ref)
    const one = toCurl(log.get(id))
    expect(one).toContain('Basic Y2xpZW50OnNlY3JldA==')
    expect(one).not.toContain('c2lnbmF0dXJl')
    for (const item of items) log.reveal(id, item.ref)
    const all = toCurl(log.get(id))
    expect(all.startsWith('curl ')).toBe(true)
    expect(all).toContain('c2lnbmF0dXJl')
  })

  it('uses -k when the exchange went with verification off, and notes a cut body', () => {
    const log = new ExchangeLog({ bodyCap: 10 })
    const id = log.record(tokenExchange({ tls: { verification: 'off', clientCertificateRequested: true }, presentedCertificate: null }))
    const cmd = toCurl(log.get(id, { raw: true }))
    expect(cmd).toMatch(/ -k$/)
    expect(cmd).not.toContain('--cert')
    expect(cmd).toMatch(/# the body was cut at 10 of \d+ bytes/)
  })

  it('reads a request body the log no longer keeps from body.bin, and says why', async () => {
    const log = new ExchangeLog({ rawBodyBudget: 0, compressedBodyBudget: 0 })
    const id = log.record(tokenExchange())
    await log.idle()
    const cmd = toCurl(log.get(id))
    expect(cmd).toMatch(/^# the request body \(\d+ bytes\) is no longer kept: the exchange log keeps .*; re-run the step to see it\. To run this command, put the body in body\.bin$/m)
    expect(cmd).toMatch(/ --data-binary '?@body\.bin'? /)
    expect(cmd).not.toContain('grant_type')
  })
})
