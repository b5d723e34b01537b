/**
 * P10: the sandbox as a team runs it (docs/team-sandbox.md), three `ob-console sandbox` instances on one
 * PostgreSQL store behind a TCP round-robin balancer (test/support/sandbox-cluster.ts), in one run:
 *
 * - a transactions page (P3's request, keep-alive connections) and a payment creation (P10PG's request,
 *   prepared and signed before the runs) sent to one instance directly and to the three behind the
 *   balancer, in alternating runs. On this 2-core machine three instances share the cores of one: the
 *   figure is the balancer's and the extra processes' overhead, not scaling;
 * - restart-to-ready: an instance SIGKILLed and started again, spawn to `/readyz` 200;
 * - the kill run of the cluster test (test/support/cluster-kill-run.ts): its counts.
 */
import type { Pool } from 'undici'
import { runKillTest } from '../support/cluster-kill-run.ts'
import { startTestPostgres, type TestPostgres } from '../support/postgres.ts'
import { startSandboxCluster, type SandboxCluster } from '../support/sandbox-cluster.ts'
import type { Benchmark, BenchResult } from './lib/report.ts'
import type { SandboxEndpoint, StarterKit } from './lib/sandbox-process.ts'
import { formatSpread, spread } from './lib/stats.ts'
import { authorisedPayments } from './store/authorised-payments.ts'
import { aisReader, transactionsPageTarget } from './throughput-bench.ts'
import { openPool, runLoad, type LoadRun, type LoadTarget } from './throughput/load.ts'

const SIDES = ['one', 'three'] as const
type Side = (typeof SIDES)[number]

const PAGE_CONNECTIONS = 12
const PAGE_WARMUP_MS = 3_000
const PAGE_RUN_MS = 4_000
const PAY_CONCURRENCY = 8
const PAY_WARMUP = 20
const PAY_PER_RUN = 100
const RUNS = 3
const RESTARTS = 3
const RUN_LIMIT_MS = 120_000
const KILL_RUN = { durationMs: 20_000, killEveryMs: 2_000, workers: 4 }

export const clusterBenchmark: Benchmark = {
  ids: ['P10'],
  title: 'P10 one instance vs three behind a TCP balancer on one PostgreSQL store; restart-to-ready; the kill run',
  async run(opts) {
    let pg: TestPostgres | undefined
    let cluster: SandboxCluster | undefined
    const pools: Pool[] = []
    try {
      pg = await startTestPostgres()
      cluster = await startSandboxCluster({ storeUrl: pg.createDatabase('bench_cluster'), root: sandboxRoot() })
      const c = cluster
      const front: SandboxEndpoint = {
        ...c.front,
        caBundlePem: c.caBundlePem,
        onboard: async (roles) => (await c.onboard(roles)) as StarterKit,
      }
      const origin: Record<Side, string> = { one: c.instances[0]!.direct.baseUrl, three: c.front.baseUrl }

      // Prepared through the balancer: tokens and consents live in the store, good on every instance.
      const reader = await aisReader(front)
      const perSide = PAY_WARMUP + RUNS * PAY_PER_RUN
      opts.log(`cluster: ${2 * perSide} payment consents authorised through the balancer`)
      const prepared = await authorisedPayments(front, 2 * perSide, 4)
      const pageTarget = (side: Side): LoadTarget => transactionsPageTarget(origin[side], reader)
      const payTarget = (side: Side, from: number): LoadTarget => ({
        origin: origin[side],
        tls: prepared.tls,
        status: 201,
        request: (i) => {
          const p = prepared.payments[(side === 'one' ? 0 : perSide) + from + i]!
          return { method: 'POST', path: p.path, headers: p.headers, body: p.body }
        },
      })
      const pagePool = {} as Record<Side, Pool>
      const payPool = {} as Record<Side, Pool>
      for (const side of SIDES) {
        pools.push((pagePool[side] = openPool(pageTarget(side), PAGE_CONNECTIONS)))
        pools.push((payPool[side] = openPool(payTarget(side, 0), PAY_CONCURRENCY)))
        await runLoad(pagePool[side], pageTarget(side), PAGE_CONNECTIONS, PAGE_WARMUP_MS)
        await runLoad(payPool[side], payTarget(side, 0), PAY_CONCURRENCY, RUN_LIMIT_MS, PAY_WARMUP)
      }
      const pages: Record<Side, LoadRun[]> = { one: [], three: [] }
      const pays: Record<Side, LoadRun[]> = { one: [], three: [] }
      for (let round = 0; round < RUNS; round++) {
        for (const side of round % 2 === 0 ? SIDES : [...SIDES].reverse()) {
          const page = await runLoad(pagePool[side], pageTarget(side), PAGE_CONNECTIONS, PAGE_RUN_MS)
          const pay = await runLoad(
            payPool[side],
            payTarget(side, PAY_WARMUP + round * PAY_PER_RUN),
            PAY_CONCURRENCY,
            RUN_LIMIT_MS,
            PAY_PER_RUN,
          )
          pages[side].push(page)
          pays[side].push(pay)
          opts.log(
            `cluster: run ${round + 1}/${RUNS} ${side}: page ${page.rps.toFixed(0)} req/s p99 ${page.p99.toFixed(1)} ms; payment ${pay.rps.toFixed(0)}/s p99 ${pay.p99.toFixed(1)} ms`,
          )
        }
      }
      const spread0 = c.balancer.connections()

      const restartMs: number[] = []
      for (let i = 0; i < RESTARTS; i++) {
        await c.kill(i % c.instances.length)
        restartMs.push(await c.start(i % c.instances.length))
        opts.log(`cluster: instance ${i % c.instances.length} ready ${restartMs.at(-1)!.toFixed(0)} ms after its start`)
      }

      opts.log(`cluster: kill run, ${KILL_RUN.durationMs / 1000} s, a kill every ${KILL_RUN.killEveryMs / 1000} s`)
      const kill = await runKillTest(c, KILL_RUN)
      restartMs.push(...kill.restartMs)

      return [
        ...loadRows('P10-page', 'transactions page', PAGE_CONNECTIONS, 'req/s', pages),
        ...loadRows('P10-pay', 'payment creation', PAY_CONCURRENCY, 'payments/s', pays),
        restartRow(restartMs),
        killRow(kill, spread0),
      ]
    } finally {
      await Promise.all(pools.map((p) => p.close()))
      await cluster?.stop()
      pg?.stop()
    }
  },
}

function sandboxRoot(): string | undefined {
  return process.env.OB_BENCH_SANDBOX_ROOT
}

function loadRows(
  id: string,
  what: string,
  concurrency: number,
  unit: string,
  runs: Record<Side, LoadRun[]>,
): BenchResult[] {
  const ratio = spread(runs.three.map((r, i) => r.rps / runs.one[i]!.rps))
  const med = (xs: LoadRun[], f: (r: LoadRun) => number) => spread(xs.map(f)).median
  const text = (xs: LoadRun[]) =>
    `${med(xs, (r) => r.rps).toFixed(0)} ${unit}, p50 ${med(xs, (r) => r.p50).toFixed(1)} ms, p99 ${med(xs, (r) => r.p99).toFixed(1)} ms`
  const errors = [...runs.one, ...runs.three].reduce((n, r) => n + r.errors, 0)
  const first = [...runs.one, ...runs.three].find((r) => r.firstError)?.firstError
  return [
    {
      id,
      what: `${what}, ${concurrency} at a time: 3 behind the balancer vs 1 direct`,
      figure: `${formatSpread(spread(runs.three.map((r) => r.rps)), 0)} ${unit}`,
      peer: `${formatSpread(spread(runs.one.map((r) => r.rps)), 0)} ${unit}`,
      ratio: ratio.median,
      ratioText: formatSpread(ratio, 2),
      target: 'no errors (2 cores: overhead)',
      verdict: errors ? 'error' : 'info',
      note: `three: ${text(runs.three)}; one: ${text(runs.one)}. ${RUNS} alternating runs; the balancer, three instances, PostgreSQL and the load share this machine's cores.${errors ? ` ${errors} errors; first: ${first}` : ''}`,
      data: { runs },
    },
  ]
}

function restartRow(ms: number[]): BenchResult {
  const s = spread(ms)
  return {
    id: 'P10-restart',
    what: 'restart-to-ready after SIGKILL (spawn to /readyz 200)',
    figure: formatSpread(s, 0, ' ms'),
    target: '(context)',
    verdict: 'info',
    note: `${ms.length} restarts (${RESTARTS} on a quiet cluster, the rest during the kill run), on a populated store: a new process loads the bank's identity from the store and migrations are current.`,
    data: { ms },
  }
}

function killRow(kill: Awaited<ReturnType<typeof runKillTest>>, spread0: number[]): BenchResult {
  const abandoned = Object.values(kill.abandoned).reduce((a, b) => a + b, 0)
  const clean =
    kill.store.duplicateConsents === 0 &&
    kill.missing === 0 &&
    kill.store.unacknowledged === 0 &&
    kill.balances.agree &&
    kill.debitsSeen.every((d) => d === kill.acknowledged) &&
    kill.secondPayments.refused === kill.secondPayments.tried
  return {
    id: 'P10-kill',
    what: 'kill run: payments kept through SIGKILLs',
    figure: `${kill.acknowledged} paid, ${kill.kills} kills`,
    peer: `${kill.store.duplicateConsents} duplicate, ${kill.missing} missing`,
    target: '0 duplicate, 0 missing, same balances',
    verdict: clean ? 'pass' : 'fail',
    note: `${KILL_RUN.durationMs / 1000} s of PIS journeys (${KILL_RUN.workers} at a time) through the balancer, an instance SIGKILLed every ${KILL_RUN.killEveryMs / 1000} s and started again: ${kill.journeys} journeys, ${kill.acknowledged} payments acknowledged, ${abandoned} journeys abandoned (${
      Object.entries(kill.abandoned)
        .map(([r, n]) => `${n}× ${r}`)
        .join('; ') || 'none'
    }), ${kill.retries} requests retried after a cut or refused connection, ${kill.serverErrors} 5xx answers; store: ${kill.store.payments} payments, ${kill.store.duplicateConsents} consents with more than one, ${kill.store.unacknowledged} not acknowledged; ${kill.missing} acknowledged missing from the store or an instance; second payments on a paid consent refused ${kill.secondPayments.refused}/${kill.secondPayments.tried}; balances the same on every instance: ${kill.balances.agree ? 'yes' : 'no'}; debits seen per instance ${kill.debitsSeen.join('/')}. Connections per instance during the load runs: ${spread0.join('/')}.`,
    data: { ...kill, connectionsPerInstance: spread0 },
  }
}
