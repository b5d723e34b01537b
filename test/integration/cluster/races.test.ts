/**
 * The races of the shared store (test/integration/local-sandbox/store/support/store-races.ts) through a TCP
 * balancer in front of three instances on one PostgreSQL store: both "sides" of every race are the
 * balancer's address and each request opens a new connection, so the racing requests spread over the
 * three instances as a team's requests do.
 */
import { startTestPostgres } from '../../support/postgres.ts'
import { startSandboxCluster } from '../../support/sandbox-cluster.ts'
import { describeStoreRaces } from '../local-sandbox/store/support/store-races.ts'
import type { TppKit } from '../local-sandbox/support/test-tpp.ts'

describeStoreRaces('three instances behind a TCP balancer, one PostgreSQL store', async () => {
  const pg = await startTestPostgres()
  try {
    const cluster = await startSandboxCluster({ storeUrl: pg.createDatabase('cluster_races') })
    return {
      sides: [cluster.front, cluster.front],
      caPem: cluster.caBundlePem,
      kit: (await cluster.onboard(['AISP', 'PISP'])) as TppKit,
      adminHeaders: cluster.adminHeaders,
      freshConnections: true,
      stop: async () => {
        await cluster.stop()
        pg.stop()
      },
    }
  } catch (err) {
    pg.stop()
    throw err
  }
})
