import { describe, expect, it } from 'vitest'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { toHar } from '../../../src-main/http/har.ts'
import { tokenExchange } from './exchange-fixture.ts'

describe('toHar', () => {
  it('writes HAR 1.2 entries with timings, bodies and the redaction flag', () => {
    const log = new ExchangeLog()
    log.record(tokenExchange())
    log.record(tokenExchange({ response: undefined, error: { code: 'TIMEOUT', what: 'w', cause: 'c', fix: 'f' }, reusedConnection: true }))
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- HAR entries are checked field by field
    const har = toHar(log.list()) as { log: { version: string; entries: Array<Record<string, any>> } }
    expect(har.log.version).toBe('1.2')
    const [ok, failed] = har.log.entries
    expect(ok!.request).toMatchObject({ method: 'POST', url: 'https://127.0.0.1:8443/token', postData: { mimeType: 'application/x-www-form-urlencoded' } })
    expect(ok!.response).toMatchObject({ status: 200, content: { mimeType: 'application/json' } })
    expect(ok!.timings).toMatchObject({ connect: 1.5, ssl: 3.2, wait: 4, receive: 1.3 })
    expect(ok!._redacted).toBe(true)
    expect(JSON.stringify(har)).not.toContain('opaque-access-token')
    expect(failed!.response.status).toBe(0)
    expect(failed!.response._error.code).toBe('TIMEOUT')
    expect(failed!.timings.connect).toBe(-1)
  })

  it('leaves the text of a body the log no longer keeps empty, with its size and a comment saying why', async () => {
    const log = new ExchangeLog({ rawBodyBudget: 0, compressedBodyBudget: 0 })
    const input = tokenExchange()
    log.record(input)
    await log.idle()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- HAR entries are checked field by field
    const [entry] = (toHar(log.list()) as { log: { entries: Array<Record<string, any>> } }).log.entries
    expect(entry!.request.postData).toMatchObject({ text: '', comment: expect.stringMatching(/^body of \d+ bytes no longer kept: .*re-run the step to see it$/) })
    expect(entry!.request.bodySize).toBe(input.request.body!.length)
    expect(entry!.response.content).toMatchObject({ text: '', size: input.response!.body!.length, comment: expect.stringMatching(/^body of \d+ bytes no longer kept: /) })
  })
})
