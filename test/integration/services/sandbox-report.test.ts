/** `sandbox.report`: the console reads the embedded sandbox's conformance report of a client it ran a flow with. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { examplePayment } from '../../../src-main/flows/pis/pis-flow.ts'
import { freshRuntime, headlessAis, ok, registeredClient, startFlow, stepStatuses } from './journey-support.ts'

describe('sandbox.report', () => {
  let rt: ConsoleRuntime
  beforeAll(async () => {
    rt = await freshRuntime()
    ok(await rt.handlers['environments.startLocalSandbox']())
  })
  afterAll(async () => rt?.stop())

  it("the console's own AIS journey keeps every rule the sandbox checks", async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const none = await h['sandbox.report']({ clientId })
    expect(none.ok).toBe(false)
    if (!none.ok)
      expect(none.error).toMatchObject({ code: 'NOT_FOUND', what: `Nothing is recorded for client ${clientId} yet.` })
    const flow = await startFlow(h, headlessAis(environmentId, clientId))
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(Object.values(stepStatuses(state))).toEqual(Array(state.steps.length).fill('done'))
    const report = ok(await h['sandbox.report']({ clientId }))
    const failures = report.rules
      .filter((r) => r.failed)
      .map((r) => [r.id, r.lastFailures.map((f) => `${f.method} ${f.path}: ${f.detail}`)])
    expect(failures).toEqual([])
    expect(report).toMatchObject({ clientId, keyedBy: 'client', ok: true })
    expect(report.requests).toBeGreaterThan(10)
    expect(report.rules.find((r) => r.id === 'pagination')!.passed).toBeGreaterThanOrEqual(2)
    const bad = await h['sandbox.report']({ clientId: '' })
    expect(!bad.ok && bad.error.code).toBe('INVALID_INPUT')
  })

  it('and its PIS journey: signed, idempotent, the consent used once', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, {
      kind: 'pis',
      environmentId,
      clientId,
      ...examplePayment(),
      capture: 'headless',
      authorisationUrlFrom: 'request-object',
    })
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(Object.values(stepStatuses(state)).filter((s) => s !== 'done' && s !== 'skipped')).toEqual([])
    const report = ok(await h['sandbox.report']({ clientId }))
    expect(
      report.rules
        .filter((r) => r.failed)
        .map((r) => [r.id, r.lastFailures.map((f) => `${f.method} ${f.path}: ${f.detail}`)]),
    ).toEqual([])
    for (const id of ['jws.signature', 'jws.header', 'idempotency.key', 'idempotency.reuse', 'consent.status']) {
      expect(report.rules.find((r) => r.id === id)!.passed, id).toBeGreaterThan(0)
    }
  })
})
