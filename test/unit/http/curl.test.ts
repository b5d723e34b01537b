import { describe, expect, it } from 'vitest'
import { FULLY_MASKED } from '../../../src-main/core/secret-mask.ts'
import { shellQuote, toCurl } from '../../../src-main/http/curl.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { tokenExchange } from './exchange-fixture.ts'

describe('toCurl', () => {
  it('quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
  })

  it('writes a masked command with the TLS options, honouring each secret a view shows, and a runnable one once all are', () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange())
    const masked = toCurl(log.get(id), { caPath: 'ca-bundle.pem' })
    expect(masked.split('\n')[0]).toMatch(/^# secrets are masked/)
    expect(masked).toContain(
      `curl -sS -X POST 'https://127.0.0.1:8443/token' -H 'content-type: application/x-www-form-urlencoded' -H 'authorization: Basic ${FULLY_MASKED}'`,
    )
    expect(masked).toContain("--cert 'transport.pem' --key 'transport.key' --cacert 'ca-bundle.pem'")
    const items = log.get(id).secrets!
    const one = toCurl(log.get(id, { reveal: [items.find((s) => s.name === 'authorization')!.ref] }))
    expect(one).toContain('Basic Y2xpZW50OnNlY3JldA==')
    expect(one).not.toContain('c2lnbmF0dXJl')
    const all = toCurl(log.get(id, { reveal: items.map((s) => s.ref) }), {
      certPath: '/kit/transport.pem',
      keyPath: '/kit/transport.key',
    })
    expect(all.startsWith('curl ')).toBe(true)
    expect(all).toContain("--cert '/kit/transport.pem' --key '/kit/transport.key'")
    expect(all).toContain('c2lnbmF0dXJl')
  })

  it("carries the environment's CA choice: --cacert for an exact CA, nothing for system trust, -k only when verification is off", () => {
    const log = new ExchangeLog()
    const view = log.get(log.record(tokenExchange()))
    const flags = (cmd: string) =>
      cmd
        .split('\n')
        .at(-1)!
        .replace(/^.*--key 'transport.key'/, '')
        .trim()
    expect(flags(toCurl(view, { trust: 'exact-ca', caPath: '/data/ca-bundles/env-1.pem' }))).toBe(
      "--cacert '/data/ca-bundles/env-1.pem'",
    )
    expect(flags(toCurl(view, { trust: 'system', caPath: '/data/ca-bundles/env-1.pem' }))).toBe('')
    expect(flags(toCurl(view, { trust: 'off', caPath: '/data/ca-bundles/env-1.pem' }))).toBe('-k')
    // An exact CA whose file is not known: no -k, and a note says what to add.
    const unknown = toCurl(view, { trust: 'exact-ca' })
    expect(flags(unknown)).toBe('')
    expect(unknown).toContain('# the environment trusts an exact CA bundle: add --cacert')
  })

  it('uses -k when the exchange went with verification off, and notes a cut body', () => {
    const log = new ExchangeLog({ bodyCap: 10 })
    const id = log.record(
      tokenExchange({ tls: { verification: 'off', clientCertificateRequested: true }, presentedCertificate: null }),
    )
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
    expect(cmd).toMatch(
      /^# the request body \(\d+ bytes\) is no longer kept: the exchange log keeps .*; re-run the step to see it\. To run this command, put the body in body\.bin$/m,
    )
    expect(cmd).toMatch(/ --data-binary '?@body\.bin'? /)
    expect(cmd).not.toContain('grant_type')
  })

  it('says where the transport certificate and key go when their paths are not known', () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange())
    expect(toCurl(log.get(id))).toMatch(
      /^# mutual TLS: save the identity's transport certificate \(PEM\) as transport\.pem and put its private key \(PEM\) in transport\.key/m,
    )
    expect(toCurl(log.get(id), { certPath: '/c.pem' })).toMatch(
      /^# mutual TLS: put its private key \(PEM\) in transport\.key/m,
    )
  })

  it('writes a large body to body.bin with printf first, byte for byte, and sends it from there', () => {
    const log = new ExchangeLog()
    const text = `grant_type=client_credentials&x=${"it's ".repeat(2000)}`
    const id = log.record(tokenExchange({ request: { ...tokenExchange().request, body: Buffer.from(text) } }))
    const cmd = toCurl(log.get(id, { raw: true }), { certPath: 'c.pem', keyPath: 'k.pem' })
    const lines = cmd.split('\n')
    expect(lines[0]).toMatch(/^# the body \(\d+ bytes\) is written to body\.bin first, then sent from it$/)
    expect(lines[1]).toBe(`printf '%s' ${shellQuote(text)} > body.bin`)
    expect(lines[2]).toMatch(/^curl -sS -X POST .* --data-binary @body\.bin --cert/)
    expect(lines[2]).not.toContain('grant_type')
    expect(toCurl(log.get(id, { raw: true }), { inlineBodyMax: 1_000_000 })).toContain(
      `--data-binary ${shellQuote(text)}`,
    )
  })
})
