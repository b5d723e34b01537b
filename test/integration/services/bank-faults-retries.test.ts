import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import {
  ALL_ACCOUNTS_PERMISSIONS,
  freshRuntime,
  ok,
  registeredClient,
  startFlow,
  stepStatuses,
} from './journey-support.ts'

const ACCOUNTS = '/open-banking/v4.0/aisp/accounts'
const MIB = 1024 * 1024

describe('GETs to a failing bank: retried, bounded, each try in the inspector (local sandbox with faults)', () => {
  let rt: ConsoleRuntime
  let client: { environmentId: string; clientId: string }
  beforeAll(async () => {
    rt = await freshRuntime()
    client = await registeredClient(rt.handlers, 'strict-headless')
  })
  beforeEach(() => rt.sandbox()?.faults.clear())
  afterAll(async () => {
    await rt?.stop()
  })

  /** A flow authorised and ready to read accounts. */
  async function authorised() {
    const flow = await startFlow(rt.handlers, {
      kind: 'ais',
      environmentId: client.environmentId,
      clientId: client.clientId,
      permissions: ALL_ACCOUNTS_PERMISSIONS,
      psuPresent: true,
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const state = ok(await rt.handlers['flows.runAll']({ flowId: flow.id, until: 'code-exchange' }))
    expect(stepStatuses(state)['code-exchange']).toBe('done')
    return flow.id
  }
  const runAccounts = async (flowId: string) =>
    ok(await rt.handlers['flows.runStep']({ flowId, stepId: 'accounts' })).steps.find((s) => s.id === 'accounts')!
  async function accountGets(flowId: string) {
    const page = ok(await rt.handlers['exchanges.list']({ flowId, limit: 500 }))
    return page.items.filter((s) => s.method === 'GET' && s.path === ACCOUNTS)
  }

  it('a reset, a 503 and a 429 with Retry-After in seconds, then the answer: each in the log as a try, the step done', async () => {
    const flowId = await authorised()
    await rt.sandbox()!.faults.set([
      { method: 'GET', path: ACCOUNTS, times: 1, fault: { kind: 'reset' } },
      {
        method: 'GET',
        path: ACCOUNTS,
        times: 1,
        fault: { kind: 'status', status: 503, body: 'busy', contentType: 'text/plain' },
      },
    ])
    const step = await runAccounts(flowId)
    expect(step.status, JSON.stringify(step.error)).toBe('done')
    const tries = await accountGets(flowId)
    expect(tries.map((x) => x.errorCode ?? x.status)).toEqual(['CONNECTION_RESET', 503, 200])
    expect(tries[1]!.label).toContain('(try 2 of 3: the connection was reset before the answer)')
    expect(tries[2]!.label).toContain('(try 3 of 3: the answer was 503)')

    const again = await authorised()
    const at = new Date(Date.now() + 1500).toUTCString()
    await rt.sandbox()!.faults.set([
      {
        method: 'GET',
        path: ACCOUNTS,
        times: 1,
        fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      },
      {
        method: 'GET',
        path: ACCOUNTS,
        times: 1,
        fault: { kind: 'status', status: 503, headers: { 'retry-after': at } },
      },
    ])
    expect((await runAccounts(again)).status).toBe('done')
    const labels = (await accountGets(again)).map((x) => `${x.status} ${x.label}`)
    expect(labels[1]).toContain('Retry-After 1')
    expect(labels[2]).toContain(`Retry-After ${at}`)
  })

  it('a 429 asking for an hour: not waited for, the step fails saying so', async () => {
    const flowId = await authorised()
    await rt
      .sandbox()!
      .faults.set([
        { method: 'GET', path: ACCOUNTS, fault: { kind: 'status', status: 429, headers: { 'retry-after': '3600' } } },
      ])
    const step = await runAccounts(flowId)
    expect(step.status).toBe('failed')
    expect(step.error!.what).toContain('asked to wait 3600 s')
    expect(step.error!.fix).toContain('run the step again after')
    expect(await accountGets(flowId)).toHaveLength(1)
  })

  it('5xx on every try: three tries, then the step fails on the last answer', async () => {
    const flowId = await authorised()
    await rt.sandbox()!.faults.set([{ method: 'GET', path: ACCOUNTS, fault: { kind: 'html-error', status: 502 } }])
    const step = await runAccounts(flowId)
    expect(step.status).toBe('failed')
    expect((await accountGets(flowId)).map((x) => x.status)).toEqual([502, 502, 502])
  })

  it('an oversize body (1 GiB declared, or streamed without a length) stops the step with RESPONSE_TOO_LARGE, a preview kept', async () => {
    for (const chunked of [false, true]) {
      const flowId = await authorised()
      await rt.sandbox()!.faults.set([
        {
          method: 'GET',
          path: ACCOUNTS,
          fault: { kind: 'oversize', bytes: chunked ? 80 * MIB : 1024 * MIB, chunked },
        },
      ])
      const step = await runAccounts(flowId)
      expect(step.status).toBe('failed')
      expect(step.error!.code).toBe('RESPONSE_TOO_LARGE')
      expect(step.error!.what).toContain(
        chunked ? 'more than 50 MiB' : '1024 MiB (1073741824 bytes) (its Content-Length)',
      )
      expect(step.error!.fix).toContain('maxResponseBodyMiB')
      const [x] = await accountGets(flowId)
      expect(x!.errorCode).toBe('RESPONSE_TOO_LARGE')
      const exchange = ok(await rt.handlers['exchanges.get']({ id: x!.id }))
      expect(exchange.response!.body).toMatchObject({
        truncated: true,
        size: chunked ? expect.any(Number) : 1024 * MIB,
      })
      expect(exchange.response!.body!.text.length).toBe(MIB)
    }
  })
})
