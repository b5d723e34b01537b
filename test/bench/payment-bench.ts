/**
 * P10PG: the rate at which the sandbox creates domestic payments (POST /domestic-payments, signed with
 * `x-jws-signature`, an idempotency key each), on the embedded store and on a PostgreSQL store, in one run.
 * The consents are created, authorised headlessly and their codes exchanged before the measured phase
 * (store/authorised-payments.ts); the requests are signed then too, so the measured phase is the sandbox's
 * work on a payment: token, signature, idempotency key, consent, funds, the store's one step, the answer.
 * A closed loop of CONCURRENCY requests at a time sends a fixed number of payments per run: bounded, it stops
 * when they are answered. The PostgreSQL sandbox's round trips are counted by a proxy (lib/pg-round-trips.ts).
 */
import type { Pool } from 'undici'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { formatSpread, spread } from './lib/stats.ts'
import { STORES, alternatingRuns, breakdownText, perRequest, startStorePair, type StoreName } from './lib/store-pair.ts'
import { IDLE_MS, idleRoundTrips } from './store-bench.ts'
import { authorisedPayments, type AuthorisedPayments } from './store/authorised-payments.ts'
import { openPool, runLoad, type LoadRun, type LoadTarget } from './throughput/load.ts'

/** Payments in flight at once. */
const CONCURRENCY = 8
const RUNS = 5
const PER_RUN = 150
/** Payments sent to each sandbox before the runs, not measured. */
const WARMUP = 30
/** Sessions preparing consents side by side. */
const PREPARE_PARALLEL = 4
/** A run that has not finished by then stops (its unanswered payments are errors). */
const RUN_LIMIT_MS = 120_000

export const paymentBenchmark: Benchmark = {
  ids: ['P10PG'],
  title: 'P10PG PIS payment creation on the embedded store vs the PostgreSQL store',
  async run(opts) {
    const pair = await startStorePair('bench_pis')
    const pools: Pool[] = []
    try {
      const prepared = {} as Record<StoreName, AuthorisedPayments>
      for (const name of STORES) {
        opts.log(`payments: ${WARMUP + RUNS * PER_RUN} consents authorised on ${name}`)
        prepared[name] = await authorisedPayments(pair.sandboxes[name], WARMUP + RUNS * PER_RUN, PREPARE_PARALLEL)
        opts.log(`payments: prepared on ${name} in ${(prepared[name].ms / 1000).toFixed(1)} s`)
      }
      /** Payment `from + i` of `name`'s prepared list as request `i`. */
      const target = (name: StoreName, from: number): LoadTarget => ({
        origin: pair.sandboxes[name].baseUrl,
        tls: prepared[name].tls,
        status: 201,
        request: (i) => {
          const p = prepared[name].payments[from + i]!
          return { method: 'POST', path: p.path, headers: p.headers, body: p.body }
        },
      })
      const pool = {} as Record<StoreName, Pool>
      for (const name of STORES) pools.push((pool[name] = openPool(target(name, 0), CONCURRENCY)))
      const send = (name: StoreName, from: number, count: number) =>
        runLoad(pool[name], target(name, from), CONCURRENCY, RUN_LIMIT_MS, count)
      for (const name of STORES) await send(name, 0, WARMUP)
      const idlePerSecond = await idleRoundTrips(pair)
      const { runs, statements } = await alternatingRuns(
        pair,
        RUNS,
        (name, i) => send(name, WARMUP + i * PER_RUN, PER_RUN),
        { label: 'payments', rate: 'payments/s', per: 'payment' },
        opts.log,
      )
      const all = [...runs.embedded, ...runs.postgres]
      const failed = all.filter((r) => r.errors > 0 || r.requests !== PER_RUN)
      const unread = pair.proxy.counts().unread
      const byStatement = perRequest(
        statements,
        runs.postgres.reduce((n, r) => n + r.requests + r.late, 0),
      )
      const verdict = failed.length || unread ? 'error' : 'info'
      const ratio = spread(runs.postgres.map((r, i) => r.rps / runs.embedded[i]!.rps))
      const rate = (xs: LoadRun[]) => `${formatSpread(spread(xs.map((r) => r.rps)), 0)} payments/s`
      const latency = (xs: LoadRun[]) =>
        `p50 ${formatSpread(spread(xs.map((r) => r.p50)), 1, ' ms')}, p99 ${formatSpread(spread(xs.map((r) => r.p99)), 1, ' ms')}`
      const brief = (xs: LoadRun[]) =>
        `p50 ${spread(xs.map((r) => r.p50)).median.toFixed(1)} ms, p99 ${spread(xs.map((r) => r.p99)).median.toFixed(1)} ms`
      const perPayment = spread(runs.postgres.map((r) => r.roundTripsPerRequest))
      const data = {
        concurrency: CONCURRENCY,
        perRun: PER_RUN,
        warmup: WARMUP,
        prepareMs: { embedded: prepared.embedded.ms, postgres: prepared.postgres.ms },
        idleRoundTripsPerSecond: idlePerSecond,
        roundTripsPerPaymentByStatement: byStatement,
        runs,
      }
      const failure = failed.length
        ? ` ${failed.length} run(s) with errors or missing answers; first: ${failed[0]!.firstError ?? `${failed[0]!.requests} of ${PER_RUN} answered`}`
        : ''
      const results: BenchResult[] = [
        {
          id: 'P10PG',
          what: `domestic payments created, ${CONCURRENCY} at a time, postgres vs embedded`,
          figure: rate(runs.postgres),
          peer: rate(runs.embedded),
          ratio: ratio.median,
          ratioText: formatSpread(ratio, 2),
          target: 'no errors',
          verdict,
          note: `${RUNS} alternating runs of ${PER_RUN} payments per store after ${WARMUP} unmeasured ones; each payment on a consent authorised (headless approval) and signed before the runs (${(prepared.embedded.ms / 1000).toFixed(0)} s embedded, ${(prepared.postgres.ms / 1000).toFixed(0)} s postgres); cluster, both sandboxes and the load on this machine.${failure}`,
          data,
        },
        {
          id: 'P10PG-lat',
          what: 'latency of a payment creation',
          figure: brief(runs.postgres),
          peer: brief(runs.embedded),
          target: '(context)',
          verdict,
          note: `Medians (min-max) over the runs: postgres ${latency(runs.postgres)}; embedded ${latency(runs.embedded)}.`,
        },
        {
          id: 'P10PG-rt',
          what: 'database round trips per payment',
          figure: `${formatSpread(perPayment, 2)} per payment`,
          peer: 'embedded: none (in memory)',
          target: '(explains P10PG)',
          verdict: unread ? 'error' : 'info',
          note: `Measured as P3PG-rt: Q and Sync messages counted by the proxy during each run / payments answered (${runs.postgres.map((r) => `${r.roundTrips}/${r.requests + r.late}`).join(', ')}). Idle: ${idlePerSecond.toFixed(1)} round trips/s (${IDLE_MS / 1000} s counted). Per payment: ${breakdownText(byStatement)}.${unread ? ` ${unread} connection(s) could not be read: the count is short.` : ''}`,
        },
      ]
      return results
    } finally {
      await Promise.all(pools.map((p) => p.close()))
      await pair.stop()
    }
  },
}
