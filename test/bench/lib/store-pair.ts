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
  /** Round trips the PostgreSQL sandbox made while `fn` ran (in all, and by statement), and what `fn` returned. */
  roundTrips<T>(fn: () => Promise<T>): Promise<{ value: T; roundTrips: number; byStatement: Map<string, number> }>
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
        const before = { counts: counter.counts(), statements: counter.statements() }
        const value = await fn()
        const byStatement = new Map<string, number>()
        for (const [text, n] of counter.statements()) {
          const d = n - (before.statements.get(text) ?? 0)
          if (d) byStatement.set(text, d)
        }
        return { value, roundTrips: counter.counts().roundTrips - before.counts.roundTrips, byStatement }
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

/** Statement counts summed over runs and divided by `answered`: `{ "SELECT …": 2, … }`, most frequent first. */
export function perRequest(counted: Array<Map<string, number>>, answered: number): Record<string, number> {
  const sum = new Map<string, number>()
  for (const m of counted) for (const [text, n] of m) sum.set(text, (sum.get(text) ?? 0) + n)
  return Object.fromEntries(
    [...sum].sort((a, b) => b[1] - a[1]).map(([text, n]) => [text, +(n / Math.max(1, answered)).toFixed(2)]),
  )
}

/** `2× SELECT offset_ms FROM sandbox_clock…; 1× …`: a breakdown short enough for a note. */
export function breakdownText(byStatement: Record<string, number>): string {
  return Object.entries(byStatement)
    .map(([text, n]) => `${n}× ${text.length > 70 ? `${text.slice(0, 69)}…` : text}`)
    .join('; ')
}
