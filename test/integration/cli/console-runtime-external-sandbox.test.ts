import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleRuntime, type ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { startLocalSandbox, type RunningSandbox } from '../../../src-main/local-sandbox/index.ts'
import { ok, stepStatuses } from '../services/journey-support.ts'

/**
 * `createConsoleRuntime({ externalSandbox })`: the console drives a local sandbox it did not start (here
 * one started beside it, as `ob-console sandbox` would run in another process), starts none of its own,
 * and leaves it running when it stops.
 */
describe('console runtime against an external local sandbox', () => {
  const sandboxDir = mkdtempSync(join(tmpdir(), 'ob-external-sandbox-'))
  let sandbox: RunningSandbox
  let rt: ConsoleRuntime
  let stopped = false

  beforeAll(async () => {
    sandbox = await startLocalSandbox({ dataDir: sandboxDir, port: 0, log: () => undefined })
    rt = await createConsoleRuntime({
      host: 'web',
      dataDir: 'fresh',
      loopbackPort: 0,
      log: () => undefined,
      externalSandbox: {
        baseUrl: sandbox.baseUrl,
        authUrl: sandbox.authUrl,
        directoryUrl: sandbox.directoryUrl,
        caBundlePem: sandbox.caBundlePem,
      },
    })
  })
  afterAll(async () => {
    if (!stopped) await rt?.stop()
    await sandbox?.stop()
    rmSync(sandboxDir, { recursive: true, force: true })
  })

  it('uses its addresses and CA, onboards at its directory, registers and runs an AIS flow there, starting no sandbox of its own', async () => {
    const h = rt.handlers
    const env = ok(await h['environments.startLocalSandbox']())
    expect(env).toMatchObject({
      kind: 'local-sandbox',
      baseUrl: sandbox.baseUrl,
      authUrl: sandbox.authUrl,
      tlsVerification: 'exact-ca',
      caBundlePem: sandbox.caBundlePem,
    })
    expect(rt.sandbox()).toBeUndefined()
    const tpp = ok(await h['tpps.onboardLocal']({ environmentId: env.id }))
    const defaults = ok(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
    const { client } = ok(
      await h['registration.register']({
        environmentId: env.id,
        tppId: tpp.id,
        form: { ...defaults, requestObjectSigningAlg: 'PS256', extraClaims: { sandbox_profile: 'strict-headless' } },
      }),
    )
    // The TPP was onboarded at the external sandbox's own directory.
    expect(await sandbox.context.directory.software(tpp.softwareId ?? '')).toBeDefined()
    const flow = ok(
      await h['flows.start']({
        kind: 'ais',
        environmentId: env.id,
        clientId: client.clientId,
        permissions: ['ReadAccountsDetail', 'ReadBalances'],
        psuPresent: true,
        capture: 'headless',
        authorisationUrlFrom: 'request-object',
      }),
    )
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(stepStatuses(state)).toMatchObject({
      discovery: 'done',
      capture: 'done',
      'id-token': 'done',
      accounts: 'done',
      balances: 'done',
    })
    const onboarding = ok(await h['exchanges.list']({ pathContains: '/tpps' }))
    expect(onboarding.items[0]?.url.startsWith(sandbox.directoryUrl)).toBe(true)
  })

  it('leaves the external sandbox running when the runtime stops', async () => {
    await rt.stop()
    stopped = true
    const agent = new Agent({ connect: { ca: sandbox.caBundlePem } })
    try {
      const res = await request(`${sandbox.authUrl}/.well-known/openid-configuration`, { dispatcher: agent })
      expect(res.statusCode).toBe(200)
      await res.body.dump()
    } finally {
      await agent.close()
    }
  })
})
