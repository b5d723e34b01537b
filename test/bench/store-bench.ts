/**
 * P3PG: P3's load (a transactions page over mutual TLS, keep-alive, 32 connections, the PSU present) on the
 * sandbox with the embedded store and on one with a PostgreSQL store (a throwaway cluster from Debian's
 * `postgresql`, test/support/postgres.ts), in one run: warm-up of each, then alternating runs.
 */
import { randomUUID } from 'node:crypto'
import type { Pool } from 'undici'
import { startTestPostgres, type TestPostgres } from '../support/postgres.ts'
import { AIS_PATH, PSU_IP } from './journey/session.ts'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { startSandboxProcess, type SandboxProcess } from './lib/sandbox-process.ts'
import { formatSpread, spread } from './lib/stats.ts'
import { aisReader, CONNECTIONS } from './throughput-bench.ts'
import { openPool, runLoad, type LoadRun, type LoadTarget } from './throughput/load.ts'

const WARMUP_MS = 3_000
const RUN_MS = 4_000
const RUNS = 3
/** Store queries of one transactions-page request on PostgreSQL: the clock offset, then the consent (see index.ts, ConsentStore.get). */
const QUERIES_PER_PAGE = 2

export const storeBenchmark: Benchmark = {
  ids: ['P3PG'],
  title: 'P3 on the embedded store vs the PostgreSQL store',
  async run(opts) {
    let pg: TestPostgres | undefined
    const sandboxes: SandboxProcess[] = []
    const pools: Pool[] = []
    try {
      pg = await startTestPostgres()
      const embedded = await startSandboxProcess()
      sandboxes.push(embedded)
      const postgres = await startSandboxProcess({ store: pg.createDatabase('bench') })
      sandboxes.push(postgres)
      const targets = {} as Record<'embedded' | 'postgres', LoadTarget>
      for (const [name, sandbox] of [
        ['embedded', embedded],
        ['postgres', postgres],
      ] as const) {
        const reader = await aisReader(sandbox)
        targets[name] = {
          origin: sandbox.baseUrl,
          tls: reader.tls,
          request: (i) => ({
            path: `${AIS_PATH}/accounts/${encodeURIComponent(reader.accountId)}/transactions?page=${(i % reader.totalPages) + 1}`,
            headers: {
              authorization: `Bearer ${reader.accessToken}`,
              accept: 'application/json',
              'x-fapi-interaction-id': randomUUID(),
              'x-fapi-customer-ip-address': PSU_IP,
            },
          }),
        }
      }
      const pool = {
        embedded: openPool(targets.embedded, CONNECTIONS),
        postgres: openPool(targets.postgres, CONNECTIONS),
      }
      pools.push(pool.embedded, pool.postgres)
      for (const name of ['embedded', 'postgres'] as const) {
        opts.log(`store: warm-up ${name} ${WARMUP_MS / 1000} s`)
        await runLoad(pool[name], targets[name], CONNECTIONS, WARMUP_MS)
      }
      const runs: Record<'embedded' | 'postgres', LoadRun[]> = { embedded: [], postgres: [] }
      for (let i = 0; i < RUNS; i++) {
        for (const name of i % 2 === 0 ? (['embedded', 'postgres'] as const) : (['postgres', 'embedded'] as const)) {
          const run = await runLoad(pool[name], targets[name], CONNECTIONS, RUN_MS)
          runs[name].push(run)
          opts.log(
            `store: run ${i + 1}/${RUNS} ${name}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, ${run.errors} errors`,
          )
        }
      }
      const failed = [...runs.embedded, ...runs.postgres].filter((r) => r.errors > 0)
      const ratio = spread(runs.postgres.map((r, i) => r.rps / runs.embedded[i]!.rps))
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
          verdict: failed.length ? 'error' : 'info',
          note: `postgres: ${text(runs.postgres)}; embedded: ${text(runs.embedded)}. ${QUERIES_PER_PAGE} store queries per page on PostgreSQL (clock offset, consent), none on the embedded store (in memory). ${RUNS} alternating runs of ${RUN_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up each; cluster, both sandboxes and the load on this machine.`,
          data: { runs },
        },
      ]
      return results
    } finally {
      await Promise.all(pools.map((p) => p.close()))
      await Promise.all(sandboxes.map((s) => s.stop()))
      pg?.stop()
    }
  },
}
