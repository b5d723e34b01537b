/**
 * Nothing lost when an instance dies: PIS journeys run through the balancer with retries while one of the
 * three instances is SIGKILLed every few seconds and started again (test/support/cluster-kill-run.ts). Then:
 * no duplicate payment, no acknowledged payment missing from the store or from any instance, at most one
 * payment per consent, and the same balances and debits seen from every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KILL_RUN_AMOUNT, runKillTest, type KillRunResult } from '../../support/cluster-kill-run.ts'
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts'
import { startSandboxCluster, type SandboxCluster } from '../../support/sandbox-cluster.ts'

describe('three instances behind a balancer, one SIGKILLed every few seconds while PIS journeys run', () => {
  let pg: TestPostgres
  let cluster: SandboxCluster
  let run: KillRunResult

  beforeAll(async () => {
    pg = await startTestPostgres()
    cluster = await startSandboxCluster({ storeUrl: pg.createDatabase('cluster_kill') })
    run = await runKillTest(cluster, { durationMs: 18_000, killEveryMs: 2_000, workers: 4 })
  }, 180_000)

  afterAll(async () => {
    await cluster?.stop()
    pg?.stop()
  })

  it('killed instances, and journeys that went on through the kills', () => {
    expect(run.kills).toBeGreaterThanOrEqual(3)
    expect(run.restartMs).toHaveLength(run.kills)
    expect(run.acknowledged).toBeGreaterThan(20)
    // Only answers lost after the bank acted on them end a journey early, and those are few.
    const abandoned = Object.values(run.abandoned).reduce((a, b) => a + b, 0)
    expect(run.acknowledged + abandoned).toBe(run.journeys)
    expect(abandoned).toBeLessThanOrEqual(run.kills * 4)
  })

  it('no duplicate payment, none acknowledged missing, at most one per consent', () => {
    expect(run.store.duplicateConsents).toBe(0)
    expect(run.missing).toBe(0)
    expect(run.store.payments).toBe(run.acknowledged)
    expect(run.store.unacknowledged).toBe(0)
    expect(run.secondPayments).toEqual({ tried: run.acknowledged, refused: run.acknowledged })
  })

  it('the same balances and the same debits from every instance, one debit per acknowledged payment', () => {
    expect(run.balances.views).toHaveLength(3)
    expect(run.balances.agree).toBe(true)
    expect(run.debitsSeen).toEqual([run.acknowledged, run.acknowledged, run.acknowledged])
    const fall = run.acknowledged * Math.round(Number(KILL_RUN_AMOUNT) * 100)
    expect(run.balances.fallPence).toEqual([fall, fall, fall])
  })
})
