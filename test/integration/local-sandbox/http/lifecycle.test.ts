import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSandbox, type RunningSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'

/** GET (or another method) on the sandbox without a client certificate, each on a fresh connection. */
async function call(sandbox: RunningSandbox, url: string, method = 'GET') {
  const agent = new Agent({ connect: { ca: sandbox.caBundlePem }, pipelining: 0 })
  try {
    const res = await request(url, { method, dispatcher: agent })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined }
  } finally {
    await agent.close()
  }
}

const origins = (s: RunningSandbox) => [s.baseUrl, s.authUrl, s.directoryUrl]

describe('health endpoints and stop, on the embedded store', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ob-lifecycle-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('/livez and /readyz answer on every origin with no client certificate, before any fault rule', async () => {
    // A rule that resets every request: health is answered before fault mode.
    const sandbox = await startLocalSandbox({ dataDir, port: 0, log: () => {}, faults: [{ fault: { kind: 'reset' } }] })
    try {
      for (const origin of origins(sandbox)) {
        const live = await call(sandbox, `${origin}/livez`)
        expect(live).toMatchObject({ status: 200, json: { status: 'live' } })
        expect(live.headers['cache-control']).toBe('no-store')
        expect(await call(sandbox, `${origin}/readyz`)).toMatchObject({ status: 200, json: { status: 'ready' } })
        expect((await call(sandbox, `${origin}/readyz`, 'HEAD')).status).toBe(200)
        const post = await call(sandbox, `${origin}/readyz`, 'POST')
        expect(post.status).toBe(405)
        expect(post.headers.allow).toBe('GET, HEAD')
      }
    } finally {
      await sandbox.stop()
    }
  })

  it('a stop with grace lets a request in flight finish and takes no new connection; without grace it cuts it', async () => {
    for (const graceMs of [5_000, 0]) {
      const sandbox = await startLocalSandbox({
        dataDir,
        port: 0,
        log: () => {},
        faults: [{ origin: 'directory', path: '/slow', fault: { kind: 'latency', ms: 800 } }],
      })
      const slow = call(sandbox, `${sandbox.directoryUrl}/slow`).then(
        (r) => r.status,
        (err: Error) => err.message,
      )
      // The request is in flight (its latency runs) when the stop begins.
      await new Promise((resolve) => setTimeout(resolve, 200))
      const stopped = sandbox.stop({ graceMs })
      const after = await call(sandbox, `${sandbox.directoryUrl}/livez`).then(
        (r) => r.status,
        (err: Error) => (err as Error & { code?: string }).code ?? err.message,
      )
      await stopped
      const outcome = await slow
      if (graceMs > 0) {
        expect(outcome).toBe(404) // the directory's real answer for /slow, after the latency
        expect(after).toBe('ECONNREFUSED')
      } else {
        expect(outcome).not.toBe(404)
      }
    }
  })
})

describe('/readyz on a PostgreSQL store', () => {
  let cluster: TestPostgres
  let dataDir: string
  beforeAll(async () => {
    cluster = await startTestPostgres()
    dataDir = mkdtempSync(join(tmpdir(), 'ob-lifecycle-pg-'))
  }, 60_000)
  afterAll(() => {
    cluster?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('names a schema newer than the instance, and a store that cannot be reached', async () => {
    const url = cluster.createDatabase(`lifecycle_${randomUUID().replace(/-/g, '')}`)
    const sandbox = await startLocalSandbox({ dataDir, port: 0, log: () => {}, store: { kind: 'postgres', url } })
    try {
      expect(await call(sandbox, `${sandbox.authUrl}/readyz`)).toMatchObject({ status: 200 })
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`INSERT INTO sandbox_migrations (version, name) VALUES (999, 'from-a-newer-instance')`)
      await client.end()
      const ahead = await call(sandbox, `${sandbox.directoryUrl}/readyz`)
      expect(ahead.status).toBe(503)
      expect(ahead.json.problems[0]).toMatch(/at migration 999, newer than this instance knows/)
      cluster.stop()
      const gone = await call(sandbox, `${sandbox.baseUrl}/readyz`)
      expect(gone.status).toBe(503)
      expect(gone.json.problems[0]).toMatch(/^the PostgreSQL store cannot be reached/)
      expect((await call(sandbox, `${sandbox.baseUrl}/livez`)).status).toBe(200)
    } finally {
      await sandbox.stop().catch(() => undefined)
    }
  })
})
