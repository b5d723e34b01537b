/**
 * The sandbox's o3 Postman environment download through the console (`o3.postmanEnvironment`), against the
 * local sandbox over mutual TLS: the addresses named after tokens (`tokenEndpoint`) keep their URLs, the client
 * secret is masked, in the answer and in the exchange log's view of the download alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { FULLY_MASKED } from '../../../src-main/core/secret-mask.ts'
import { freshRuntime, ok, registeredClient } from './journey-support.ts'

describe('the o3 Postman environment download', () => {
  let rt: ConsoleRuntime
  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('keeps tokenEndpoint and the other addresses, masks the client secret, in the answer and in the exchange log', async () => {
    const h = rt.handlers
    const { clientId } = await registeredClient(h, 'permissive-headless')
    const r = ok(await h['o3.postmanEnvironment']({ clientId })) as {
      environment: { values: Array<{ key: string; value: string }> }
      exchangeId: string
    }
    const value = (values: Array<{ key: string; value: string }>, key: string) =>
      values.find((v) => v.key === key)?.value
    const sandbox = rt.sandbox()!
    expect(value(r.environment.values, 'tokenEndpoint')).toMatch(new RegExp(`^${sandbox.authUrl}/`))
    expect(value(r.environment.values, 'authEndpoint')).toMatch(new RegExp(`^${sandbox.authUrl}/`))
    expect(value(r.environment.values, 'client_secret')).toBe('(masked)')
    expect(value(r.environment.values, 'client_id')).toBe(clientId)

    const view = ok(await h['exchanges.get']({ id: r.exchangeId }))
    const logged = JSON.parse(view.response!.body!.text) as { values: Array<{ key: string; value: string }> }
    expect(value(logged.values, 'tokenEndpoint')).toBe(value(r.environment.values, 'tokenEndpoint'))
    expect(value(logged.values, 'client_secret')).toMatch(new RegExp(`^(${FULLY_MASKED}|[^…]{8}…[^…]{8})$`))
  }, 120_000)
})
