import { describe, expect, it } from 'vitest'
import { BodyStore } from '../../../src-main/http/body-store.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { contentTypeOf, makeRecord, recordJwts, unrecordedInput } from '../../../src-main/http/exchange-record.ts'
import { assertion, tokenExchange } from './exchange-fixture.ts'

const store = (bodyCap = 1024) => new BodyStore(bodyCap, 1024 * 1024, 1024 * 1024)

describe('exchange-record', () => {
  it('makes a record of an input: its bodies in the store, its facts kept, no member for what is absent', () => {
    const bodies = store()
    const input = tokenExchange()
    const record = makeRecord('id-1', input, bodies)
    expect(record).toMatchObject({
      id: 'id-1',
      startedAt: '2026-01-01T00:00:00.000Z',
      environmentId: 'env-1',
      identityId: 'transport-1',
      label: 'token (client_credentials)',
      request: { method: 'POST', url: 'https://127.0.0.1:8443/token', headers: input.request.headers },
      response: { status: 200, headers: input.response!.headers },
      timings: input.timings,
      reusedConnection: false,
      presentedCertificate: input.presentedCertificate,
      tls: input.tls,
    })
    expect(record.request.body).toMatchObject({ contentType: 'application/x-www-form-urlencoded', truncated: false })
    expect(bodies.bytesOf(record.response!.body)!.equals(Buffer.from(input.response!.body!))).toBe(true)
    // JWTs are found when first viewed, not here.
    expect(record.jwts).toBeUndefined()
    const bare = makeRecord(
      'id-2',
      tokenExchange({
        environmentId: undefined,
        identityId: undefined,
        label: undefined,
        tls: undefined,
        response: undefined,
      }),
      bodies,
    )
    for (const absent of ['environmentId', 'identityId', 'label', 'tls', 'error', 'response'])
      expect(bare).not.toHaveProperty(absent)
    expect(bodies.stats().rawBodies).toBe(3)
  })

  it('keeps a response cut by the client as cut, with its whole size', () => {
    const bodies = store()
    const preview = Buffer.from('{"rows":[1,2,3')
    const record = makeRecord(
      'id',
      tokenExchange({
        response: {
          status: 200,
          statusText: 'OK',
          headers: [['content-type', 'application/json']],
          body: preview,
          bodySize: 5000,
        },
      }),
      bodies,
    )
    expect(record.response).toMatchObject({ statusText: 'OK', body: { size: 5000, truncated: true } })
    // A cut body's JWTs are searched at once, while the whole body is at hand.
    expect(record.jwts!.map((j) => j.location)).toEqual(['request body client_assertion'])
  })

  it('finds the JWTs of a body cut at the cap in the whole body, as recorded', () => {
    const log = new ExchangeLog({ bodyCap: 40 })
    const idToken = `${assertion}`
    const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(60), id_token: idToken }))
    const view = log.get(
      log.record(tokenExchange({ response: { status: 200, headers: [['content-type', 'application/json']], body } })),
    )
    expect(view.response!.body!.truncated).toBe(true)
    expect(view.jwts.map((j) => j.location)).toContain('response body id_token')
  })

  it('finds the JWTs in the bodies given, or else in the texts of the bodies kept', () => {
    const record = makeRecord('id', tokenExchange({ response: undefined }), store())
    const given = recordJwts(record, Buffer.from(`client_assertion=${assertion}`))
    expect(given.map((j) => j.location)).toEqual(['request body client_assertion'])
    const fromTexts = recordJwts(record, undefined, undefined, { request: () => `client_assertion=${assertion}` })
    expect(fromTexts.map((j) => j.compact)).toEqual([assertion])
    expect(recordJwts(record)).toEqual([])
  })

  it('reads the content type whatever the case of its name', () => {
    expect(contentTypeOf([['Content-Type', 'application/json']])).toBe('application/json')
    expect(contentTypeOf([['accept', 'application/json']])).toBeUndefined()
  })

  it('stands in for an exchange whose input could not be built, saying why', () => {
    expect(unrecordedInput(new Error('no certificate'))).toMatchObject({
      request: { method: '?', url: '', headers: [] },
      presentedCertificate: null,
      error: { code: 'INTERNAL', what: 'This exchange could not be recorded.', cause: 'no certificate' },
    })
    expect(unrecordedInput('plain string').error!.cause).toBe('plain string')
  })
})
