import { describe, expect, it } from 'vitest'
import { shellQuote, toCurl } from '../../../src-main/http/curl.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { tokenExchange } from './exchange-fixture.ts'

describe('toCurl', () => {
  it('quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
  })

  it('writes a redacted command with the TLS options, and a runnable one when revealed', () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange())
    const redacted = toCurl(log.get(id), { caPath: 'ca-bundle.pem' })
    expect(redacted.split('\n')[0]).toMatch(/^# secrets are redacted/)
    expect(redacted).toContain("curl -sS -X POST 'https://127.0.0.1:8443/token' -H 'content-type: application/x-www-form-urlencoded' -H 'authorization: Basic REDACTED'")
    expect(redacted).toContain("--cert 'transport.pem' --key 'transport.key' --cacert 'ca-bundle.pem'")
    const revealed = toCurl(log.get(id, { reveal: true }))
    expect(revealed.startsWith('curl ')).toBe(true)
    expect(revealed).toContain('Basic Y2xpZW50OnNlY3JldA==')
  })

  it('uses -k when the exchange went with verification off, and notes a cut body', () => {
    const log = new ExchangeLog({ bodyCap: 10 })
    const id = log.record(tokenExchange({ tls: { verification: 'off', clientCertificateRequested: true }, presentedCertificate: null }))
    const cmd = toCurl(log.get(id, { reveal: true }))
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
