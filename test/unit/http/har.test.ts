import { describe, expect, it } from 'vitest'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { toHar } from '../../../src-main/http/har.ts'
import { harSchemaErrors } from '../../support/har-schema.ts'
import { tokenExchange } from './exchange-fixture.ts'

describe('toHar', () => {
  it('writes HAR 1.2 entries with timings, bodies and the redaction flag', () => {
    const log = new ExchangeLog()
    log.record(tokenExchange())
    log.record(
      tokenExchange({
        response: undefined,
        error: { code: 'TIMEOUT', what: 'w', cause: 'c', fix: 'f' },
        reusedConnection: true,
      }),
    )
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- HAR entries are checked field by field
    const har = toHar(log.list()) as { log: { version: string; entries: Array<Record<string, any>> } }
    expect(har.log.version).toBe('1.2')
    const [ok, failed] = har.log.entries
    expect(ok!.request).toMatchObject({
      method: 'POST',
      url: 'https://127.0.0.1:8443/token',
      postData: { mimeType: 'application/x-www-form-urlencoded' },
    })
    expect(ok!.response).toMatchObject({ status: 200, content: { mimeType: 'application/json' } })
    expect(ok!.timings).toMatchObject({ connect: 4.7, ssl: 3.2, wait: 4, receive: 1.3 })
    expect(ok!.time).toBe(10)
    expect(ok!._redacted).toBe(true)
    expect(JSON.stringify(har)).not.toContain('opaque-access-token')
    expect(failed!.response.status).toBe(0)
    expect(failed!.response._error.code).toBe('TIMEOUT')
    expect(failed!.timings.connect).toBe(-1)
  })

  it("names the environment's CA choice in each entry: the CA bundle's file for an exact CA, none otherwise", async () => {
    const log = new ExchangeLog()
    log.record(tokenExchange())
    log.record(tokenExchange({ environmentId: 'env-2' }))
    log.record(tokenExchange({ environmentId: 'env-3' }))
    const trust = { 'env-1': 'exact-ca', 'env-2': 'system', 'env-3': 'off' } as const
    const har = toHar(log.list(), undefined, (e) => ({
      trust: trust[e.environmentId as keyof typeof trust],
      caPath: '/data/ca-bundles/env.pem',
    })) as { log: { entries: Array<{ _trust?: unknown }> } }
    expect(har.log.entries.map((e) => e._trust)).toEqual([
      { verification: 'exact-ca', caFile: '/data/ca-bundles/env.pem' },
      { verification: 'system' },
      { verification: 'off' },
    ])
    expect(await harSchemaErrors(har)).toEqual([])
  })

  it('names the flow step that failed on an exchange and its code in the entry comment, and stays valid HAR 1.2', async () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange({ label: 'token (client_credentials)' }))
    const failedStep = {
      flowId: 'f1',
      step: 'token',
      code: 'OAUTH_ERROR' as const,
      what: 'Getting the client-credentials token failed: 401 invalid_client.',
    }
    const views = log.list().map((x) => (x.id === id ? { ...x, failedStep } : x))
    log.record(tokenExchange())
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- HAR entries are checked field by field
    const har = toHar([...views, log.list()[1]!]) as { log: { entries: Array<Record<string, any>> } }
    const [failed, other] = har.log.entries
    expect(failed!.comment).toBe(
      'token (client_credentials) · step "token" failed: OAUTH_ERROR: Getting the client-credentials token failed: 401 invalid_client.',
    )
    expect(failed!._failedStep).toEqual(failedStep)
    expect(failed!._exchangeId).toBe(id)
    expect(other!.comment).toBe('token (client_credentials)')
    expect(other!._failedStep).toBeUndefined()
    expect(await harSchemaErrors(har)).toEqual([])
  })

  it('leaves the text of a body the log no longer keeps empty, with its size and a comment saying why', async () => {
    const log = new ExchangeLog({ rawBodyBudget: 0, compressedBodyBudget: 0 })
    const input = tokenExchange()
    log.record(input)
    await log.idle()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- HAR entries are checked field by field
    const [entry] = (toHar(log.list()) as { log: { entries: Array<Record<string, any>> } }).log.entries
    expect(entry!.request.postData).toMatchObject({
      text: '',
      comment: expect.stringMatching(/^body of \d+ bytes no longer kept: .*re-run the step to see it$/),
    })
    expect(entry!.request.bodySize).toBe(input.request.body!.length)
    expect(entry!.response.content).toMatchObject({
      text: '',
      size: input.response!.body!.length,
      comment: expect.stringMatching(/^body of \d+ bytes no longer kept: /),
    })
  })

  it('is valid HAR 1.2 for every kind of exchange: answered, failed, reused connection, binary and dropped bodies', async () => {
    const log = new ExchangeLog({ bodyCap: 64 })
    log.record(tokenExchange())
    log.record(
      tokenExchange({
        response: undefined,
        error: { code: 'TIMEOUT', what: 'w', cause: 'c', fix: 'f' },
        reusedConnection: true,
        timings: { connect: 0, tls: 0, firstByte: 0, total: 0 },
      }),
    )
    log.record(
      tokenExchange({
        request: { method: 'GET', url: 'https://127.0.0.1:8443/a?x=1&y', headers: [] },
        response: {
          status: 200,
          headers: [['content-type', 'application/octet-stream']],
          body: Buffer.from([0, 255, 1, 254]),
        },
        timings: { dns: 0.4, connect: 1, tls: 2, firstByte: 3, total: 9 },
      }),
    )
    log.record(tokenExchange({ request: { ...tokenExchange().request, body: Buffer.alloc(200, 'a') } }))
    // A connection opened while the request was prepared: 6 ms of its setup before the request, outside `time`.
    log.record(tokenExchange({ timings: { dns: 0, connect: 0, tls: 1.5, firstByte: 3, total: 6, preconnected: 6 } }))
    const har = toHar(log.list()) as { log: { entries: Array<{ time: number; timings: Record<string, number> }> } }
    expect(await harSchemaErrors(har)).toEqual([])
    expect(har.log.entries.at(-1)!.timings).toMatchObject({ connect: 1.5, ssl: 1.5, _preconnected: 6 })
    expect(har.log.entries.at(-1)!.time).toBe(6)
    for (const e of har.log.entries) {
      const { ssl, _preconnected, ...rest } = e.timings
      expect(ssl! <= Math.max(0, rest.connect!)).toBe(true)
      expect(e.time).toBeCloseTo(
        Object.values(rest)
          .filter((t) => t > 0)
          .reduce((a, b) => a + b, 0),
        2,
      )
    }
    // The validator does find what is wrong: a status that is not a number, an entry without timings.
    const broken = JSON.parse(JSON.stringify(har)) as { log: { entries: Array<Record<string, unknown>> } }
    ;(broken.log.entries[0]!.response as Record<string, unknown>).status = '200'
    delete broken.log.entries[1]!.timings
    expect((await harSchemaErrors(broken)).length).toBeGreaterThan(0)
  })
})
