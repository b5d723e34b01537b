import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { harSchemaErrors } from '../../support/har-schema.ts'
import { readCollection } from '../../support/postman-sdk.ts'
import { freshRuntime, headlessAis, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

interface Har {
  log: {
    version: string
    entries: Array<{
      startedDateTime: string
      request: { method: string; url: string; headers: Array<{ name: string; value: string }> }
      response: { status: number }
    }>
  }
}

describe('HAR of a whole journey (exchanges.har), against the local sandbox', () => {
  let rt: ConsoleRuntime

  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('every exchange of an AIS journey, in order, is valid HAR 1.2; a filter gives what the inspector shows', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, headlessAis(environmentId, clientId))
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(Object.values(stepStatuses(state))).toEqual(Array(state.steps.length).fill('done'))

    const all = ok(await h['exchanges.list']({ flowId: flow.id, limit: 5000 }))
    const har = JSON.parse(ok(await h['exchanges.har']({ flowId: flow.id }))) as Har
    expect(await harSchemaErrors(har)).toEqual([])
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries).toHaveLength(all.total)
    expect(all.total).toBeGreaterThan(20)
    const started = har.log.entries.map((e) => e.startedDateTime)
    expect(started).toEqual([...started].sort())
    expect(har.log.entries.some((e) => e.request.method === 'POST' && /\/token$/.test(e.request.url))).toBe(true)
    // Masked as the inspector shows it.
    expect(JSON.stringify(har)).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/)

    const shown = ok(await h['exchanges.list']({ flowId: flow.id, pathContains: '/balances', status: '2xx' }))
    const some = JSON.parse(
      ok(await h['exchanges.har']({ flowId: flow.id, pathContains: '/balances', status: '2xx' })),
    ) as Har
    expect(await harSchemaErrors(some)).toEqual([])
    expect(some.log.entries.map((e) => new URL(e.request.url).pathname).sort()).toEqual(
      shown.items.map((s) => s.path).sort(),
    )
    expect(some.log.entries.every((e) => e.response.status === 200)).toBe(true)

    // The same journey as a Postman v2.1 collection, read back by Postman's SDK: every request, masked, signing described.
    const text = ok(await h['exchanges.postman']({ flowId: flow.id, name: 'AIS journey' }))
    const collection = readCollection(JSON.parse(text))
    expect(collection.name).toBe('AIS journey')
    expect(collection.items.all().map((i) => i.request.url.toString())).toEqual(
      har.log.entries.map((e) => e.request.url),
    )
    expect(text).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/)
    expect(text).not.toContain('PRIVATE KEY')
    expect(text).toMatch(/Signing: Postman cannot sign/)
  }, 180_000)
})
