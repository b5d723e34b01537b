import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { freshRuntime, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

describe('token grants beside the code exchange, against the local sandbox over mutual TLS', () => {
  let rt: ConsoleRuntime

  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('refresh_token (the local sandbox advertises it): a new access token for the consent, used by the data steps run again', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic'],
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const done = ok(await h['flows.runAll']({ flowId: flow.id }))
    const discovery = done.steps.find((s) => s.id === 'discovery')!.output as { grant_types_supported?: string[] }
    expect(discovery.grant_types_supported).toContain('refresh_token')
    const exchangeBefore = done.steps.find((s) => s.id === 'code-exchange')!
    const { flow: refreshed, exchangeId } = ok(await h['flows.refreshToken']({ flowId: flow.id }))
    const exchange = refreshed.steps.find((s) => s.id === 'code-exchange')!
    expect(exchange.summary).toContain('refreshed')
    expect(exchange.exchangeIds).toEqual([...exchangeBefore.exchangeIds, exchangeId])
    const sent = ok(await h['exchanges.get']({ id: exchangeId }))
    expect(sent.response?.status).toBe(200)
    // The data steps run again with the new token; the old one is not what they send.
    const again = ok(await h['flows.runStep']({ flowId: flow.id, stepId: 'accounts' }))
    expect(stepStatuses(again).accounts).toBe('done')
    // A flow without a code exchange yet is told to run it.
    const fresh = await startFlow(h, {
      kind: 'ais',
      environmentId,
      clientId,
      permissions: ['ReadAccountsBasic'],
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const early = await h['flows.refreshToken']({ flowId: fresh.id })
    expect(early.ok ? undefined : early.error.code).toBe('FLOW_STEP_NOT_READY')
  })
})
