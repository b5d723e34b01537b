import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { PostgresStore } from '../../../../src-main/local-sandbox/store/postgres-store.ts'
import {
  FAULT_RULES_LISTENER,
  PostgresFaultRules,
} from '../../../../src-main/local-sandbox/store/postgres-fault-rules.ts'
import { migrationsOnDisk } from '../../../../src-main/local-sandbox/store/postgres-migrations.ts'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'
import { conformanceContract } from './conformance-contract.ts'
import { faultRulesContract } from './fault-rules-contract.ts'
import { oidcModelsContract } from './oidc-models-contract.ts'
import { sandboxStoreContract } from './sandbox-store-contract.ts'

let cluster: TestPostgres
beforeAll(async () => {
  cluster = await startTestPostgres()
}, 60_000)
afterAll(() => cluster?.stop())

const freshDatabase = () => cluster.createDatabase(`store_${randomUUID().replace(/-/g, '')}`)

const openPostgres = async () => {
  const url = freshDatabase()
  return { store: await PostgresStore.open(url), reopen: () => PostgresStore.open(url), shared: true }
}
sandboxStoreContract('postgres', openPostgres)
oidcModelsContract('postgres', openPostgres)
faultRulesContract('postgres', openPostgres)
conformanceContract('postgres', openPostgres)

describe('PostgreSQL store migrations', () => {
  it('several instances opening one empty database at once migrate it once, under the advisory lock', async () => {
    const url = freshDatabase()
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url, { max: 2 })))
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const rows = (await client.query('SELECT version, name FROM sandbox_migrations ORDER BY version')).rows
    await client.end()
    expect(rows).toEqual(migrationsOnDisk().map((m) => ({ version: m.version, name: m.name })))
    expect(await stores[0]!.clockOffset()).toBe(0)
    await Promise.all(stores.map((s) => s.close()))
  })
})

describe('PostgreSQL fault rules: a change waits for every instance’s copy', () => {
  it('answers after the bound when an instance stalls, says how many had not read it, and stops waiting once it is gone', async () => {
    const url = freshDatabase()
    const store = await PostgresStore.open(url)
    const pool = new pg.Pool({ connectionString: url, max: 3 })
    const rules = new PostgresFaultRules(pool, { copiesWaitMs: 300 })
    const lagging: number[] = []
    let reads = 0
    const unwatch = await rules.watch(
      async () => void reads++,
      (behind) => lagging.push(behind),
    )
    // A second instance that listens and never reads: a session named as a listener that records nothing.
    const stalled = new pg.Client({ connectionString: url, application_name: FAULT_RULES_LISTENER })
    await stalled.connect()
    try {
      const started = Date.now()
      await rules.add({ id: 'r', origin: 'any', method: undefined, path: '*', skip: 0, fault: { kind: 'reset' } })
      expect(Date.now() - started).toBeGreaterThanOrEqual(300)
      expect(lagging).toEqual([1])
      expect(reads).toBe(2)
    } finally {
      await stalled.end()
    }
    // The stalled session is gone from pg_stat_activity: the next change waits for nobody but this one.
    const listeners = async () =>
      (
        await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
          FAULT_RULES_LISTENER,
        ])
      ).rows[0]!.n
    await expect.poll(listeners, { timeout: 5000 }).toBe(1)
    const started = Date.now()
    expect(await rules.remove('r')).toBe(true)
    expect(Date.now() - started).toBeLessThan(300)
    expect(lagging).toEqual([1])
    await unwatch()
    await pool.end()
    await store.close()
  })
})
