/**
 * P3PG: P3's load (a transactions page over mutual TLS, keep-alive, 32 connections, the PSU present) on the
 * sandbox with the embedded store and on one with a PostgreSQL store (a throwaway cluster from Debian's
 * `postgresql`, test/support/postgres.ts), in one run: warm-up of each, then alternating runs. The PostgreSQL
 * sandbox reaches its cluster through a proxy that counts the round trips (lib/pg-round-trips.ts): the figure
 * is those counted during a run divided by the requests answered in it.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Pool } from 'undici'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { formatSpread, spread } from './lib/stats.ts'
import {
  STORES,
  alternatingRuns,
  breakdownText,
  perRequest,
  startStorePair,
  type StoreName,
  type StorePair,
} from './lib/store-pair.ts'
import { aisReader, CONNECTIONS, transactionsPageTarget } from './throughput-bench.ts'
import { openPool, runLoad, type LoadRun, type LoadTarget } from './throughput/load.ts'

const WARMUP_MS = 3_000
const RUN_MS = 4_000
const RUNS = 3
/** The window in which the PostgreSQL sandbox's round trips without requests are counted. */
export const IDLE_MS = 2_000

/** Round trips the PostgreSQL sandbox makes on its own (timers), per second, over {@link IDLE_MS}. */
export async function idleRoundTrips(pair: StorePair): Promise<number> {
  const { roundTrips } = await pair.roundTrips(() => sleep(IDLE_MS))
  return roundTrips / (IDLE_MS / 1000)
}

export const storeBenchmark: Benchmark = {
  ids: ['P3PG'],
  title: 'P3 on the embedded store vs the PostgreSQL store',
  async run(opts) {
    const pair = await startStorePair('bench_p3')
    const pools: Pool[] = []
    try {
      const targets = {} as Record<StoreName, LoadTarget>
      for (const name of STORES) {
        const reader = await aisReader(pair.sandboxes[name])
        targets[name] = transactionsPageTarget(pair.sandboxes[name].baseUrl, reader)
      }
      const pool = {
        embedded: openPool(targets.embedded, CONNECTIONS),
        postgres: openPool(targets.postgres, CONNECTIONS),
      }
      pools.push(pool.embedded, pool.postgres)
      for (const name of STORES) {
        opts.log(`store: warm-up ${name} ${WARMUP_MS / 1000} s`)
        await runLoad(pool[name], targets[name], CONNECTIONS, WARMUP_MS)
      }
      const idlePerSecond = await idleRoundTrips(pair)
      const { runs, statements } = await alternatingRuns(
        pair,
        RUNS,
        (name) => runLoad(pool[name], targets[name], CONNECTIONS, RUN_MS),
        { label: 'store', rate: 'req/s', per: 'request' },
        opts.log,
      )
      const failed = [...runs.embedded, ...runs.postgres].filter((r) => r.errors > 0)
      const unread = pair.proxy.counts().unread
      const byStatement = perRequest(
        statements,
        runs.postgres.reduce((n, r) => n + r.requests + r.late, 0),
      )
      const ratio = spread(runs.postgres.map((r, i) => r.rps / runs.embedded[i]!.rps))
      const tripsPerRequest = spread(runs.postgres.map((r) => r.roundTripsPerRequest))
      const med = (xs: LoadRun[], f: (r: LoadRun) => number) => spread(xs.map(f)).median
      const text = (xs: LoadRun[]) =>
        `${med(xs, (r) => r.rps).toFixed(0)} req/s, p50 ${med(xs, (r) => r.p50).toFixed(2)} ms, p99 ${med(xs, (r) => r.p99).toFixed(2)} ms`
      const results: BenchResult[] = [
        {
          id: 'P3PG',
          what: `transactions page, ${CONNECTIONS} conns, postgres vs embedded store`,
          figure: `${med(runs.postgres, (r) => r.rps).toFixed(0)} req/s`,
          peer: `${med(runs.embedded, (r) => r.rps).toFixed(0)} req/s`,
          ratio: ratio.median,
          ratioText: formatSpread(ratio, 2),
          target: 'no errors',
          verdict: failed.length || unread ? 'error' : 'info',
          note: `postgres: ${text(runs.postgres)}; embedded: ${text(runs.embedded)}. ${RUNS} alternating runs of ${RUN_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up each; cluster, both sandboxes and the load on this machine.${failed.length ? ` ${failed.reduce((n, r) => n + r.errors, 0)} failed requests; first: ${failed[0]!.firstError}` : ''}`,
          data: { runs, idleRoundTripsPerSecond: idlePerSecond, roundTripsPerRequestByStatement: byStatement },
        },
        {
          id: 'P3PG-rt',
          what: 'database round trips per page request',
          figure: `${formatSpread(tripsPerRequest, 2)} per request`,
          peer: 'embedded: none (in memory)',
          target: '(explains P3PG)',
          verdict: unread ? 'error' : 'info',
          note: `Measured: Q and Sync messages from the sandbox to PostgreSQL, counted by a proxy between them, during each run, divided by the requests answered in it (${runs.postgres.map((r) => `${r.roundTrips}/${r.requests + r.late}`).join(', ')}). Idle, the sandbox made ${idlePerSecond.toFixed(1)} round trips/s on its own (${IDLE_MS / 1000} s counted). Per request: ${breakdownText(byStatement)}.${unread ? ` ${unread} connection(s) could not be read (encrypted?): the count is short.` : ''}`,
        },
      ]
      return results
    } finally {
      await Promise.all(pools.map((p) => p.close()))
      await pair.stop()
    }
  },
}
