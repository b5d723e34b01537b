/**
 * `sandbox.faults`, `sandbox.addFault`, `sandbox.removeFault`, `sandbox.clearFaults`: the console reads and
 * changes the embedded sandbox's fault rules through its directory's admin endpoint; the sandbox checks each rule.
 */
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { freshRuntime, ok } from './journey-support.ts'

describe('the fault mode calls', () => {
  let rt: ConsoleRuntime
  beforeAll(async () => {
    rt = await freshRuntime()
    ok(await rt.handlers['environments.startLocalSandbox']())
  })
  afterAll(async () => {
    await rt?.stop()
  })

  /** A request of a client of the bank's directory, outside the console, on a new connection. */
  const jwks = async () => {
    const agent = new Agent({ connect: { ca: rt.sandbox()!.caBundlePem } })
    try {
      const res = await request(`${rt.sandbox()!.directoryUrl}/jwks`, { dispatcher: agent })
      await res.body.text()
      return res.statusCode
    } finally {
      await agent.close()
    }
  }

  it('adds a rule from the form, sees it hit and exhausted, removes it; the sandbox answers as before', async () => {
    const h = rt.handlers
    expect(ok(await h['sandbox.faults']()).rules).toEqual([])
    const added = ok(
      await h['sandbox.addFault']({
        rule: {
          id: 'jwks-down',
          origin: 'directory',
          method: 'GET',
          path: '/jwks',
          times: 1,
          fault: { kind: 'status', status: 503 },
        },
      }),
    )
    expect(added.added).toBe('jwks-down')
    expect(added.rules).toEqual([
      {
        id: 'jwks-down',
        origin: 'directory',
        method: 'GET',
        path: '/jwks',
        skip: 0,
        times: 1,
        fault: { kind: 'status', status: 503 },
        seen: 0,
        hits: 0,
        exhausted: false,
      },
    ])
    expect(await jwks()).toBe(503)
    expect(await jwks()).toBe(200)
    expect(ok(await h['sandbox.faults']()).rules[0]).toMatchObject({ seen: 1, hits: 1, exhausted: true })
    const removed = ok(await h['sandbox.removeFault']({ id: 'jwks-down' }))
    expect(removed).toEqual({ rules: [], removed: 1 })
    const again = await h['sandbox.removeFault']({ id: 'jwks-down' })
    expect(!again.ok && again.error).toMatchObject({
      code: 'NOT_FOUND',
      what: 'The local sandbox has no fault rule "jwks-down".',
    })
  })

  it("a bad rule is refused with the sandbox's own sentence and field, and the rules in force stay", async () => {
    const h = rt.handlers
    ok(await h['sandbox.addFault']({ json: '{"id":"slow","path":"/token","fault":{"kind":"latency","ms":10}}' }))
    const bad = await h['sandbox.addFault']({ json: '{"path":"/token","fault":{"kind":"latency","ms":"2s"}}' })
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      expect(bad.error).toMatchObject({
        code: 'INVALID_INPUT',
        what: 'The local sandbox refused the fault rule.',
        cause: 'rule.fault.ms is "2s": it must be a whole number of milliseconds from 0 to 120000',
        details: { field: 'rule.fault.ms', status: 400 },
      })
      expect(bad.error.fix).toMatch(/^Correct rule\.fault\.ms and add it again/)
    }
    const kind = await h['sandbox.addFault']({ rule: { fault: { kind: 'sleep' } } })
    expect(!kind.ok && kind.error.cause).toBe(
      'rule.fault.kind is "sleep": it must be one of latency, status, html-error, reset, lost-response, truncate, oversize, mutate, pagination, tls-handshake',
    )
    const taken = await h['sandbox.addFault']({ rule: { id: 'slow', fault: { kind: 'reset' } } })
    expect(!taken.ok && taken.error.details).toMatchObject({ field: 'rule.id' })
    const notJson = await h['sandbox.addFault']({ json: '{"fault": {"kind": "reset"}' })
    expect(!notJson.ok && notJson.error.code).toBe('INVALID_INPUT')
    expect(!notJson.ok && notJson.error.cause).toMatch(/^the body is not valid JSON/)
    for (const input of [{}, { json: '  ' }, { rule: [] }, { rule: {}, json: '{}' }, { json: 'x'.repeat(70_000) }]) {
      const r = await h['sandbox.addFault'](input as never)
      expect(!r.ok && r.error.code, JSON.stringify(input).slice(0, 40)).toBe('INVALID_INPUT')
    }
    expect(ok(await h['sandbox.faults']()).rules.map((r) => r.id)).toEqual(['slow'])
    ok(await h['sandbox.clearFaults']())
  })

  it('refuses a tls-handshake rule that would lock the console out of the directory; one on base is added', async () => {
    const h = rt.handlers
    for (const origin of ['directory', 'any', undefined]) {
      const r = await h['sandbox.addFault']({
        rule: { ...(origin ? { origin } : {}), fault: { kind: 'tls-handshake' } },
      })
      expect(!r.ok && r.error.code, String(origin)).toBe('INVALID_INPUT')
      expect(!r.ok && r.error.fix).toMatch(/"times"/)
    }
    expect(ok(await h['sandbox.faults']()).rules).toEqual([])
    const counted = ok(
      await h['sandbox.addFault']({ json: '{"origin":"directory","times":1,"fault":{"kind":"tls-handshake"}}' }),
    )
    const onBase = ok(await h['sandbox.addFault']({ rule: { origin: 'base', fault: { kind: 'tls-handshake' } } }))
    expect(onBase.rules.map((r) => [r.origin, r.times])).toEqual([
      ['directory', 1],
      ['base', undefined],
    ])
    expect(counted.added).toMatch(/^f\d+$/)
    // The directory rule refuses one new connection: a new client's.
    await expect(jwks()).rejects.toThrow()
    expect(await jwks()).toBe(200)
    const cleared = ok(await h['sandbox.clearFaults']())
    expect(cleared).toEqual({ rules: [], removed: 2 })
  })

  it('removeFault checks the id; every call says so when the local sandbox is not running', async () => {
    const bad = await rt.handlers['sandbox.removeFault']({ id: '../clock' })
    expect(!bad.ok && bad.error.code).toBe('INVALID_INPUT')
    const none = await rt.handlers['sandbox.removeFault']({} as never)
    expect(!none.ok && none.error.code).toBe('INVALID_INPUT')
    const idle = await freshRuntime()
    try {
      for (const r of [
        await idle.handlers['sandbox.faults'](),
        await idle.handlers['sandbox.addFault']({ rule: { fault: { kind: 'reset' } } }),
        await idle.handlers['sandbox.removeFault']({ id: 'f1' }),
        await idle.handlers['sandbox.clearFaults'](),
      ]) {
        expect(!r.ok && r.error).toMatchObject({ code: 'NOT_FOUND', what: 'The local sandbox is not running.' })
      }
    } finally {
      await idle.stop()
    }
  })
})
