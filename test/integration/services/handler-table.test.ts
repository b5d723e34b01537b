import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { CALL_NAMES } from '../../../src-main/contract/api.ts'
import { isErrorCode } from '../../../src-main/contract/errors.ts'
import { freshRuntime } from './journey-support.ts'

describe('the handler table', () => {
  let rt: ConsoleRuntime
  beforeAll(async () => {
    rt = await freshRuntime()
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('implements every call of the contract', () => {
    expect(Object.keys(rt.handlers).sort()).toEqual([...CALL_NAMES].sort())
  })

  it("app.info says how the secret store's master key is protected (web host and CLI: a 0600 key file)", async () => {
    const info = await rt.handlers['app.info'](undefined)
    expect(info.ok && info.value.masterKey).toEqual({ kind: 'key-file', detail: expect.stringMatching(/0600/) })
  })

  it("reads and moves the local sandbox clock forward through its directory, and gives its test PSUs' logins", async () => {
    const started = await rt.handlers['environments.startLocalSandbox']()
    expect(started.ok).toBe(true)
    const before = await rt.handlers['sandbox.clock']()
    if (!before.ok) throw new Error(before.error.what)
    const moved = await rt.handlers['sandbox.moveClock']({ days: 1, hours: 2 })
    if (!moved.ok) throw new Error(moved.error.what)
    expect(moved.value.advancedSeconds).toBe(26 * 3600)
    expect(moved.value.offsetSeconds).toBe(before.value.offsetSeconds + 26 * 3600)
    expect(Date.parse(moved.value.now) - Date.parse(before.value.now)).toBeGreaterThanOrEqual(26 * 3600 * 1000)
    for (const bad of [{}, { hours: -1 }, { days: 1.5 }, { days: 4000 }]) {
      const r = await rt.handlers['sandbox.moveClock'](bad)
      expect(r.ok, JSON.stringify(bad)).toBe(false)
      if (!r.ok) expect(r.error.code).toBe('INVALID_INPUT')
    }
    const logins = await rt.handlers['sandbox.testPsus']({ environmentId: 'local-sandbox' })
    if (!logins.ok) throw new Error(logins.error.what)
    expect(logins.value.find((p) => p.username === 'amelia')).toMatchObject({
      username: 'amelia',
      password: expect.any(String),
    })
    expect(Object.keys(logins.value[0]!).sort()).toEqual(['name', 'password', 'username'])
  })

  it('answers bad input on every call with a Result error of the closed set, never a throw', async () => {
    const inputs: unknown[] = [
      undefined,
      null,
      42,
      'text',
      {
        id: 'nope',
        flowId: 'nope',
        tppId: 'nope',
        clientId: 'nope',
        environmentId: 'nope',
        token: 'not.a.jwt',
        pem: 'junk',
        ssa: 'junk',
        stepId: 'x',
        url: 'x',
        kind: 'moon',
      },
    ]
    const readOnlyOk = new Set([
      'app.info',
      'environments.startLocalSandbox',
      'environments.list',
      'tpps.list',
      'clients.list',
      'flows.list',
      'exchanges.list',
      'exchanges.har',
      'exchanges.postman',
      'exchanges.clear',
      'consents.list',
      'sandbox.clock',
      'sandbox.faults',
      'sandbox.clearFaults',
    ])
    for (const name of CALL_NAMES) {
      for (const input of inputs) {
        const result = await (
          rt.handlers[name] as (
            i: unknown,
          ) => Promise<{ ok: boolean; error?: { code: string; what: string; fix: string } }>
        )(input)
        if (readOnlyOk.has(name)) continue
        expect(result.ok, `${name}(${JSON.stringify(input)})`).toBe(false)
        expect(isErrorCode(result.error!.code), `${name}: ${result.error!.code}`).toBe(true)
        expect(result.error!.what.length).toBeGreaterThan(5)
        expect(result.error!.fix.length).toBeGreaterThan(5)
      }
    }
  })
})
