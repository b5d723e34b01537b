import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { startPgRoundTripProxy, type PgRoundTripProxy } from '../../../bench/lib/pg-round-trips.ts'
import { startTestPostgres, type TestPostgres } from '../../../support/postgres.ts'

let cluster: TestPostgres
let proxy: PgRoundTripProxy
beforeAll(async () => {
  cluster = await startTestPostgres()
  proxy = await startPgRoundTripProxy(cluster.createDatabase('proxied'))
}, 60_000)
afterAll(async () => {
  await proxy?.stop()
  cluster?.stop()
})

/** A node-postgres client connected through the proxy. */
async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: proxy.url })
  await c.connect()
  return c
}

describe('the PostgreSQL round-trip counting proxy', () => {
  it('counts one round trip per query, simple or extended, and none for the start-up', async () => {
    const before = proxy.counts()
    const c = await client()
    const connected = proxy.counts()
    expect(connected.roundTrips).toBe(before.roundTrips)
    expect(connected.connections).toBe(before.connections + 1)

    await c.query('CREATE TABLE t (id int PRIMARY KEY, v text)')
    await c.query('INSERT INTO t VALUES ($1, $2)', [1, 'one'])
    expect((await c.query('SELECT v FROM t WHERE id = $1', [1])).rows).toEqual([{ v: 'one' }])
    const after = proxy.counts()
    expect(after.roundTrips - connected.roundTrips).toBe(3)
    expect(after.simpleQueries - connected.simpleQueries).toBe(1)
    expect(after.syncs - connected.syncs).toBe(2)

    // A transaction is as many round trips as statements: BEGIN, two statements, COMMIT.
    await c.query('BEGIN')
    await c.query('UPDATE t SET v = $1 WHERE id = $2', ['uno', 1])
    await c.query('SELECT count(*) FROM t')
    await c.query('COMMIT')
    expect(proxy.counts().roundTrips - after.roundTrips).toBe(4)

    // A named prepared statement is parsed once: its second run sends Bind/Execute/Sync only, still a round trip.
    const prepared = proxy.counts()
    for (let i = 0; i < 2; i++) await c.query({ name: 'by-id', text: 'SELECT v FROM t WHERE id = $1', values: [1] })
    expect(proxy.counts().syncs - prepared.syncs).toBe(2)
    await c.end()

    const statements = proxy.statements()
    expect(statements.get('SELECT v FROM t WHERE id = $1')).toBe(3)
    expect(statements.get('INSERT INTO t VALUES ($1, $2)')).toBe(1)
    expect(statements.get('BEGIN')).toBe(1)
    expect(proxy.counts().unread).toBe(0)
  })

  it('counts a query string of several statements as one round trip, and messages split across packets', async () => {
    const c = await client()
    const a = proxy.counts().roundTrips
    await c.query('SELECT 1; SELECT 2; SELECT 3')
    expect(proxy.counts().roundTrips - a).toBe(1)
    // A long query arrives in several TCP chunks: still one message.
    const long = `SELECT '${'x'.repeat(200_000)}' AS v`
    expect((await c.query(long)).rows[0].v).toHaveLength(200_000)
    expect(proxy.counts().roundTrips - a).toBe(2)
    await c.end()
  })

  it('skips an SSL request the server refuses, then reads the startup packet and counts what follows', async () => {
    // By hand: SSLRequest (answered N: the throwaway cluster has no certificate), StartupMessage, one Q, Terminate.
    const before = proxy.counts()
    const sock = connect(Number(new URL(proxy.url).port), '127.0.0.1')
    let received = Buffer.alloc(0)
    const waitFor = (test: (b: Buffer) => boolean) =>
      new Promise<void>((done, fail) => {
        const check = () => {
          if (!test(received)) return
          sock.off('data', check)
          done()
        }
        sock.on('data', (d: Buffer) => {
          received = Buffer.concat([received, d])
        })
        sock.on('data', check)
        sock.once('error', fail)
      })
    const untyped = (code: number, rest = Buffer.alloc(0)) => {
      const b = Buffer.alloc(8 + rest.length)
      b.writeInt32BE(b.length, 0)
      b.writeInt32BE(code, 4)
      rest.copy(b, 8)
      return b
    }
    const typed = (type: string, payload: Buffer) => {
      const b = Buffer.alloc(5 + payload.length)
      b.write(type, 0, 'latin1')
      b.writeInt32BE(4 + payload.length, 1)
      payload.copy(b, 5)
      return b
    }
    const answered = waitFor((b) => b.length >= 1)
    sock.write(untyped(80877103))
    await answered
    expect(received.toString('latin1')).toBe('N')
    received = Buffer.alloc(0)
    // ReadyForQuery is Z, length 5, then the transaction status byte.
    const ready = () => waitFor((b) => b.includes(Buffer.from([0x5a, 0, 0, 0, 5])))
    const started = ready()
    const db = new URL(proxy.url).pathname.slice(1)
    sock.write(untyped(196608, Buffer.from(`user\0postgres\0database\0${db}\0\0`, 'latin1')))
    await started
    expect(proxy.counts().roundTrips).toBe(before.roundTrips)
    received = Buffer.alloc(0)
    const answeredQuery = ready()
    sock.write(typed('Q', Buffer.from('SELECT 1\0', 'latin1')))
    await answeredQuery
    sock.end(typed('X', Buffer.alloc(0)))
    const after = proxy.counts()
    expect(after.roundTrips - before.roundTrips).toBe(1)
    expect(after.simpleQueries - before.simpleQueries).toBe(1)
    expect(after.unread).toBe(0)
  })

  it('gives up on a stream that is not the protocol, and says so in unread', async () => {
    const before = proxy.counts()
    const sock = connect(Number(new URL(proxy.url).port), '127.0.0.1')
    sock.on('error', () => undefined)
    const closed = new Promise<void>((done) => sock.once('close', () => done()))
    sock.end(Buffer.from([0, 0, 0, 2, 0x51, 0x51])) // a length of 2: shorter than any startup packet
    await closed
    expect(proxy.counts().unread).toBe(before.unread + 1)
  })
})
