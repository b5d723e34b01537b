/**
 * Two sandbox processes (the built command line) on one PostgreSQL store, requests sent to both at once
 * (support/store-races.ts). Both processes run on one data directory here; the shared identity (PKI and
 * keys in the store) has tests of its own, and test/integration/cluster runs the same races through a
 * balancer in front of three instances with data directories of their own.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { startTestPostgres } from '../../../support/postgres.ts'
import { ADMIN_HEADERS, startInstance, stopInstance, type Instance } from '../support/sandbox-instances.ts'
import type { TppKit } from '../support/test-tpp.ts'
import { describeStoreRaces } from './support/store-races.ts'

describeStoreRaces('two sandbox processes on one PostgreSQL store', async () => {
  const pg = await startTestPostgres()
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-shared-store-'))
  const started: Instance[] = []
  const stop = async () => {
    await Promise.all(started.map((i) => stopInstance(i)))
    pg.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const storeUrl = pg.createDatabase('races')
    started.push(await startInstance(dataDir, storeUrl))
    started.push(await startInstance(dataDir, storeUrl))
    const caPem = readFileSync(started[0]!.caBundlePath, 'utf8')
    const directory = new Agent({ connect: { ca: caPem } })
    const onboarded = await request(`${started[0]!.directoryUrl}/tpps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ADMIN_HEADERS },
      body: JSON.stringify({ roles: ['AISP', 'PISP'] }),
      dispatcher: directory,
    })
    const kit = (await onboarded.body.json()) as TppKit
    await directory.close()
    return {
      sides: [started[0]!, started[1]!],
      caPem,
      kit,
      adminHeaders: ADMIN_HEADERS,
      freshConnections: false,
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
})
