/**
 * Two sandbox processes for the store benchmarks, started the same way: one on the embedded store (its data
 * directory), one on a PostgreSQL store in a throwaway cluster (test/support/postgres.ts), reached through a
 * proxy that counts the database round trips (pg-round-trips.ts).
 */
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts'
import { startPgRoundTripProxy, type PgRoundTripProxy } from './pg-round-trips.ts'
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.ts'
import type { LoadRun } from '../throughput/load.ts'

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

/** A run on the PostgreSQL sandbox with its round trips: those counted, per request answered. */
export interface CountedRun extends LoadRun {
  roundTrips: number
  roundTripsPerRequest: number
}

/** How a benchmark's runs are named in its log lines. */
export interface RunWords {
  /** The log line's prefix, e.g. `payments`. */
  label: string
  /** The rate's unit, e.g. `payments/s`. */
  rate: string
  /** What one request is, e.g. `payment`. */
  per: string
}

/**
 * `rounds` alternating rounds of `load` on both sandboxes (embedded first on even rounds, PostgreSQL first
 * on odd ones), the PostgreSQL sandbox's round trips counted per request answered (late answers included),
 * one log line per run.
 */
export async function alternatingRuns(
  pair: StorePair,
  rounds: number,
  load: (name: StoreName, round: number) => Promise<LoadRun>,
  words: RunWords,
  log: (line: string) => void,
): Promise<{ runs: { embedded: LoadRun[]; postgres: CountedRun[] }; statements: Array<Map<string, number>> }> {
  const runs: { embedded: LoadRun[]; postgres: CountedRun[] } = { embedded: [], postgres: [] }
  const statements: Array<Map<string, number>> = []
  for (let i = 0; i < rounds; i++) {
    for (const name of i % 2 === 0 ? STORES : [...STORES].reverse()) {
      const counted = await pair.roundTrips(() => load(name, i))
      const run = counted.value
      let trips = ''
      if (name === 'postgres') {
        statements.push(counted.byStatement)
        // Every request sent was answered before the load returned (those after the end are `late`).
        const perRequest = counted.roundTrips / Math.max(1, run.requests + run.late)
        runs.postgres.push({ ...run, roundTrips: counted.roundTrips, roundTripsPerRequest: perRequest })
        trips = `, ${perRequest.toFixed(2)} round trips per ${words.per}`
      } else runs.embedded.push(run)
      log(
        `${words.label}: run ${i + 1}/${rounds} ${name}: ${run.rps.toFixed(0)} ${words.rate}, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms${trips}, ${run.errors} errors`,
      )
    }
  }
  return { runs, statements }
}
