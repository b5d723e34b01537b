import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createConsoleRuntime, type ConsoleRuntime } from '../../../../src-main/cli/console-runtime.ts'
import type { FlowState } from '../../../../src-main/contract/flows.ts'
import { startLocalSandbox, type RunningSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { defaultPkiTemplateDir } from '../../../../src-main/local-sandbox/pki/template.ts'
import { examplePayment } from '../../../../src-main/flows/pis/pis-flow.ts'
import { ALL_ACCOUNTS_PERMISSIONS, ok } from '../journey-support.ts'
import { startHostileBankProxy, type HostileBankProxy } from './hostile-bank-proxy.ts'

/** A sandbox, the hostile proxy in front of its `{base_url}`, and a console whose environment points at the proxy. */
export interface HostileBankRig {
  sandbox: RunningSandbox
  proxy: HostileBankProxy
  rt: ConsoleRuntime
  environmentId: string
  clientId: string
  /** Starts an AIS flow (PSU present unless told) and runs it up to `until` (done). */
  ais(until?: string, psuPresent?: boolean): Promise<string>
  /** Starts a PIS flow and runs it up to `until` (done). */
  pis(until?: string): Promise<string>
  stop(): Promise<void>
}

export async function startHostileBankRig(
  options: { maxBodyBytes?: number; pisPolling?: { intervalMs: number; maxWaitMs: number } } = {},
): Promise<HostileBankRig> {
  const dir = mkdtempSync(join(tmpdir(), 'ob-hostile-bank-'))
  const sandbox = await startLocalSandbox({
    dataDir: dir,
    port: 0,
    log: () => undefined,
    pkiTemplate: defaultPkiTemplateDir(),
  })
  const proxy = await startHostileBankProxy(sandbox)
  const rt = await createConsoleRuntime({
    host: 'web',
    dataDir: 'fresh',
    loopbackPort: 0,
    log: () => undefined,
    pisPolling: options.pisPolling ?? { intervalMs: 50, maxWaitMs: 20_000 },
    retry: { sleep: async () => undefined },
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    externalSandbox: {
      baseUrl: proxy.url,
      authUrl: sandbox.authUrl,
      directoryUrl: sandbox.directoryUrl,
      caBundlePem: `${sandbox.caBundlePem.trimEnd()}\n${proxy.caPem}`,
    },
  })
  const h = rt.handlers
  const env = ok(await h['environments.startLocalSandbox']())
  const tpp = ok(await h['tpps.onboardLocal']({ environmentId: env.id }))
  const material = await rt.services.tpps.material(tpp.id)
  if (!material.transport) throw new Error('the onboarded TPP has no transport identity')
  proxy.useIdentity(material.transport)
  const defaults = ok(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
  const { client } = ok(
    await h['registration.register']({
      environmentId: env.id,
      tppId: tpp.id,
      form: {
        ...defaults,
        tokenEndpointAuthMethod: 'private_key_jwt',
        requestObjectSigningAlg: 'PS256',
        extraClaims: { sandbox_profile: 'strict-headless' },
      },
    }),
  )
  const environmentId = env.id
  const clientId = client.clientId
  const done = (state: FlowState, until: string) => {
    const failed = state.steps.find((s) => s.status === 'failed')
    if (failed) throw new Error(`setting up: step ${failed.id} failed: ${JSON.stringify(failed.error)}`)
    if (!/done|skipped/.test(state.steps.find((s) => s.id === until)?.status ?? ''))
      throw new Error(`setting up: step ${until} did not run`)
  }
  return {
    sandbox,
    proxy,
    rt,
    environmentId,
    clientId,
    async ais(until, psuPresent = true) {
      const flow = ok(
        await h['flows.start']({
          kind: 'ais',
          environmentId,
          clientId,
          permissions: ALL_ACCOUNTS_PERMISSIONS,
          psuPresent,
          capture: 'headless',
          authorisationUrlFrom: 'request-object',
        }),
      )
      if (until) done(ok(await h['flows.runAll']({ flowId: flow.id, until })), until)
      return flow.id
    },
    async pis(until) {
      const flow = ok(
        await h['flows.start']({
          kind: 'pis',
          environmentId,
          clientId,
          ...examplePayment(),
          capture: 'headless',
          authorisationUrlFrom: 'request-object',
        }),
      )
      if (until) done(ok(await h['flows.runAll']({ flowId: flow.id, until })), until)
      return flow.id
    },
    async stop() {
      await rt.stop()
      await proxy.stop()
      await sandbox.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
