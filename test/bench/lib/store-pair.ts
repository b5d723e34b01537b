/**
 * Two sandbox processes for the store benchmarks, started the same way: one on the embedded store (its data
 * directory), one on a PostgreSQL store in a throwaway cluster (test/support/postgres.ts), reached through a
 * proxy that counts the database round trips (pg-round-trips.ts).
 */
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts'
import { startPgRoundTripProxy, type PgRoundTripProxy } from './pg-round-trips.ts'
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.ts'

export type StoreName = 'embedded' | 'postgres'
export const STORES: readonly StoreName[] = ['embedded', 'postgres']

export interface StorePair {
  sandboxes: Record<StoreName, SandboxProcess>
  /** Between the PostgreSQL sandbox and its cluster. */
  proxy: PgRoundTripProxy
  /** Round trips the PostgreSQL sandbox made while `fn` ran, and what `fn` returned. */
  roundTrips<T>(fn: () => Promise<T>): Promise<{ value: T; roundTrips: number; unread: number }>
  stop(): Promise<void>
}

export async function startStorePair(database: string): Promise<StorePair> {
  let pg: TestPostgres | undefined
  let proxy: PgRoundTripProxy | undefined
  const started: SandboxProcess[] = []
  const stop = async () => {
    await Promise.all(started.map((s) => s.stop()))
    await proxy?.stop()
    pg?.stop()
  }
  try {
    pg = await startTestPostgres()
    proxy = await startPgRoundTripProxy(pg.createDatabase(database))
    const embedded = await startSandboxProcess()
    started.push(embedded)
    const postgres = await startSandboxProcess({ store: proxy.url })
    started.push(postgres)
    const counter = proxy
    return {
      sandboxes: { embedded, postgres },
      proxy: counter,
      async roundTrips(fn) {
        const before = counter.counts()
        const value = await fn()
        const after = counter.counts()
        return { value, roundTrips: after.roundTrips - before.roundTrips, unread: after.unread }
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}
