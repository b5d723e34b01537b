import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import {
  startLocalSandbox,
  type RunningSandbox,
  type SandboxOptions,
  type StoreSpec,
} from '../../../../src-main/local-sandbox/index.ts'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'
import { TestTpp, type TppKit } from './test-tpp.ts'

export interface TestSandbox {
  sandbox: RunningSandbox
  /** Onboards a new TPP through the directory's HTTPS endpoint and returns a client for it. */
  onboard(input?: { roles?: Array<'AISP' | 'PISP'>; redirectUris?: string[]; orgName?: string }): Promise<TestTpp>
  /** Stops the sandbox, closes every client and removes the temporary data directory. */
  stop(): Promise<void>
}

let cluster: Promise<TestPostgres> | undefined

/**
 * The store a test sandbox starts on: embedded, or with `OB_TEST_STORE=postgres` a fresh database on a
 * throwaway PostgreSQL cluster (one per test process, stopped when it exits), so the same suites run
 * against both backends.
 */
async function testStore(): Promise<StoreSpec | undefined> {
  if (process.env.OB_TEST_STORE !== 'postgres') return undefined
  cluster ??= startTestPostgres().then((pg) => {
    process.once('exit', () => pg.stop())
    return pg
  })
  return { kind: 'postgres', url: (await cluster).createDatabase(`sandbox_${randomUUID().replace(/-/g, '')}`) }
}

/** Starts the local sandbox on free ports with a fresh temporary data directory (and store, see testStore). */
export async function startTestSandbox(options: Omit<SandboxOptions, 'dataDir' | 'port'> = {}): Promise<TestSandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-sandbox-test-'))
  const logs: string[] = []
  const store = options.store ?? (await testStore())
  const sandbox = await startLocalSandbox({ dataDir, port: 0, log: (l) => logs.push(l), ...options, store })
  const clients: TestTpp[] = []
  const directoryAgent = new Agent({ connect: { ca: sandbox.caBundlePem }, connections: 1 })
  return {
    sandbox,
    async onboard(input = {}) {
      const res = await request(`${sandbox.directoryUrl}/tpps`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {}),
        },
        body: JSON.stringify(input),
        dispatcher: directoryAgent,
      })
      const text = await res.body.text()
      if (res.statusCode !== 201) throw new Error(`directory onboarding answered ${res.statusCode}: ${text}`)
      const kit = JSON.parse(text) as TppKit
      const tpp = new TestTpp(
        {
          baseUrl: sandbox.baseUrl,
          authUrl: sandbox.authUrl,
          directoryUrl: sandbox.directoryUrl,
          caBundlePem: sandbox.caBundlePem,
        },
        kit,
      )
      clients.push(tpp)
      return tpp
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close()))
      await directoryAgent.close()
      await sandbox.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
