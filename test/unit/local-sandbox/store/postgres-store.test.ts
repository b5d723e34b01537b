import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { PostgresStore } from '../../../../src-main/local-sandbox/store/postgres-store.ts'
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
