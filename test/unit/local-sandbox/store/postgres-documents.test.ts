import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { IDENTITY_LOCK } from '../../../../src-main/local-sandbox/store/postgres-documents.ts'
import { PostgresStore } from '../../../../src-main/local-sandbox/store/postgres-store.ts'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'
import { bankDocumentsContract } from './bank-documents-contract.ts'

let cluster: TestPostgres
const stores: PostgresStore[] = []
beforeAll(async () => {
  cluster = await startTestPostgres()
}, 60_000)
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()))
  cluster?.stop()
})

async function openStore(url: string): Promise<PostgresStore> {
  const store = await PostgresStore.open(url, { max: 3 })
  stores.push(store)
  return store
}

bankDocumentsContract('postgres: table bank_documents', async () => {
  const url = cluster.createDatabase(`docs_${randomUUID().replace(/-/g, '')}`)
  const store = await openStore(url)
  return {
    docs: store.documents,
    another: async () => (await openStore(url)).documents,
    contenderWaiting: () => advisoryWaiter(url),
  }
})

/** Resolves once some session waits (not granted) for the identity lock: seen in pg_locks, not guessed by time. */
async function advisoryWaiter(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    for (;;) {
      const r = await admin.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1", [
        IDENTITY_LOCK,
      ])
      if (r.rowCount) return
      await new Promise((res) => setImmediate(res))
    }
  } finally {
    await admin.end()
  }
}

describe('PostgreSQL bank documents', () => {
  it('names the table, the rows and the statement that removes them, with the password masked', async () => {
    const url = cluster.createDatabase(`docs_${randomUUID().replace(/-/g, '')}`)
    const store = await openStore(url.replace('postgres@', 'postgres:s3cret@'))
    const { where, remove } = store.documents.locate('pki/')
    expect(where).toMatch(/^the store postgres:\/\/postgres:\*\*\*@.+ \(table bank_documents, names starting pki\/\)$/)
    expect(where).not.toContain('s3cret')
    expect(remove).toBe("delete those rows (DELETE FROM bank_documents WHERE starts_with(name, 'pki/'))")
    expect(store.documents.locate('auth/signing-key.json').where).toMatch(
      /^bank document auth\/signing-key\.json in the store postgres:\/\/postgres:\*\*\*@.+ \(table bank_documents\)$/,
    )
  })

  it('a holder whose connection dies releases the lock (it goes with the connection)', async () => {
    const url = cluster.createDatabase(`docs_${randomUUID().replace(/-/g, '')}`)
    const holder = await openStore(url)
    const other = await openStore(url)
    let entered!: () => void
    const inside = new Promise<void>((r) => (entered = r))
    let finish!: () => void
    const held = holder.documents.withLock(async () => {
      entered()
      await new Promise<void>((r) => (finish = r))
    })
    await inside
    const waiting = other.documents.withLock(async () => 'got it')
    // The holder's session ends as a killed process's would: its advisory lock is released with it.
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    const killed = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1",
      [IDENTITY_LOCK],
    )
    await admin.end()
    expect(killed.rowCount).toBe(1)
    expect(await waiting).toBe('got it')
    finish()
    await held // its unlock fails on the dead connection, which is dropped rather than reused
  })

  it('holds the PKI: the data directory gets the CA bundle only, and a broken key names the rows and the fix', async () => {
    const url = cluster.createDatabase(`docs_${randomUUID().replace(/-/g, '')}`)
    const store = await openStore(url)
    const dirs = [mkdtempSync(join(tmpdir(), 'ob-pki-pg-')), mkdtempSync(join(tmpdir(), 'ob-pki-pg-'))]
    try {
      const first = await loadOrCreatePki(dataDirLayout(dirs[0]!), { documents: store.documents })
      const second = await loadOrCreatePki(dataDirLayout(dirs[1]!), { documents: store.documents })
      expect(second.caBundlePem).toBe(first.caBundlePem)
      expect(second.serverTls).toEqual(first.serverTls)
      for (const dir of dirs) {
        expect(readdirSync(join(dir, 'pki'))).toEqual(['ca-bundle.pem'])
        expect(readFileSync(join(dir, 'pki', 'ca-bundle.pem'), 'utf8')).toBe(first.caBundlePem)
      }
      await store.documents.write('pki/issuing-ca.key', (await store.documents.read('pki/server.key'))!)
      await expect(loadOrCreatePki(dataDirLayout(dirs[0]!), { documents: store.documents })).rejects.toThrow(
        /^issuing-ca\.key is not the key of issuing-ca\.pem\. The sandbox's PKI in the store postgres:\/\/.+ \(table bank_documents, names starting pki\/\) cannot be used; delete those rows \(DELETE FROM bank_documents WHERE starts_with\(name, 'pki\/'\)\) to generate a new one/,
      )
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    }
  })
})
