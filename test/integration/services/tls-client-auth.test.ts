import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleRuntime, type ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { startLocalSandbox, type RunningSandbox } from '../../../src-main/local-sandbox/index.ts'
import { ok, stepStatuses } from './journey-support.ts'

/**
 * tls_client_auth for real: the local sandbox started with its extension beyond the bank's spec
 * (`tlsClientAuth`, `ob-console sandbox --tls-client-auth`) advertises it, registers a client with it and
 * takes the transport certificate as the client's authentication at the token endpoint; the console then
 * runs a whole AIS journey (client credentials, code exchange, refresh) sending no assertion and no secret.
 */
describe("tls_client_auth against the local sandbox's extension", () => {
  const sandboxDir = mkdtempSync(join(tmpdir(), 'ob-tls-client-auth-'))
  let sandbox: RunningSandbox
  let rt: ConsoleRuntime

  beforeAll(async () => {
    sandbox = await startLocalSandbox({ dataDir: sandboxDir, port: 0, log: () => undefined, tlsClientAuth: true })
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
    await rt?.stop()
    await sandbox?.stop()
    rmSync(sandboxDir, { recursive: true, force: true })
  })

  it('registers a tls_client_auth client and runs the AIS journey with the certificate as its only credential', async () => {
    const h = rt.handlers
    const env = ok(await h['environments.startLocalSandbox']())
    const tpp = ok(await h['tpps.onboardLocal']({ environmentId: env.id }))
    const subjectDn = tpp.transport!.certificate!.tlsClientAuthSubjectDn
    const defaults = ok(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
    // The console's registration checks follow the bank's table 2.1, which has no tls_client_auth: sent anyway.
    const { client } = ok(
      await h['registration.register']({
        environmentId: env.id,
        tppId: tpp.id,
        sendAnyway: true,
        form: {
          ...defaults,
          tokenEndpointAuthMethod: 'tls_client_auth',
          requestObjectSigningAlg: 'PS256',
          extraClaims: { sandbox_profile: 'strict-headless', tls_client_auth_subject_dn: subjectDn },
        },
      }),
    )
    expect(client.authMethod).toBe('tls_client_auth')
    expect(client.registration).toMatchObject({
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: subjectDn,
    })

    const flow = ok(
      await h['flows.start']({
        kind: 'ais',
        environmentId: env.id,
        clientId: client.clientId,
        permissions: ['ReadAccountsBasic'],
        psuPresent: true,
        capture: 'headless',
        authorisationUrlFrom: 'request-object',
      }),
    )
    const state = ok(await h['flows.runAll']({ flowId: flow.id }))
    expect(stepStatuses(state)).toMatchObject({
      discovery: 'done',
      'client-credentials': 'done',
      'code-exchange': 'done',
      accounts: 'done',
    })
    expect(
      (state.steps.find((s) => s.id === 'discovery')!.output as { token_endpoint_auth_methods_supported: string[] })
        .token_endpoint_auth_methods_supported,
    ).toContain('tls_client_auth')
    // What went to the token endpoint: the client id, no assertion, no Authorization header.
    const tokenCall = ok(
      await h['exchanges.get']({ id: state.steps.find((s) => s.id === 'client-credentials')!.exchangeIds[0]! }),
    )
    expect(tokenCall.request.body?.text).toContain(`client_id=${encodeURIComponent(client.clientId)}`)
    expect(tokenCall.request.body?.text).not.toContain('client_assertion')
    expect(tokenCall.request.headers.some(([name]) => name.toLowerCase() === 'authorization')).toBe(false)
    // The refresh_token grant with the same authentication.
    const { exchangeId } = ok(await h['flows.refreshToken']({ flowId: flow.id }))
    expect(ok(await h['exchanges.get']({ id: exchangeId })).response?.status).toBe(200)
  })
})
