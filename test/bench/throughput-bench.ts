/**
 * P3: the local sandbox's throughput on a transactions page over mutual TLS with keep-alive, 32
 * connections, against the floor: a bare Node https server with the same TLS settings answering a fixed
 * body of the same bytes. Both servers run in child processes of their own (never at the same time
 * under load); the load generator runs in this process. After a warm-up of each, the runs alternate.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Pool } from 'undici'
import { floorIo } from './journey/floor-io.ts'
import { AIS_PATH, JourneySession, PSU_IP, json, unexpected } from './journey/session.ts'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { REPO_ROOT, startSandboxProcess, type SandboxEndpoint } from './lib/sandbox-process.ts'
import { processCpuMs } from './lib/proc-cpu.ts'
import { formatSpread, spread } from './lib/stats.ts'
import { openPool, runLoad, type LoadRun, type LoadTarget } from './throughput/load.ts'

export const CONNECTIONS = 32
const WARMUP_MS = 5_000
const RUN_MS = 4_000
const RUNS = 5
/** Targets as ratios to the floor measured in the same run: a loaded machine slows both alike. */
const RPS_RATIO_TARGET = 0.8
const P99_RATIO_TARGET = 1.5

export interface AisReader {
  /** The transport certificate the access token is bound to, and its key. */
  tls: { ca: string; cert: string; key: string }
  accessToken: string
  accountId: string
  totalPages: number
  /** Page 1 exactly as the sandbox sent it: the floor's fixed body. */
  pageOne: string
}

/**
 * P3's request at `origin`: a page of the reader's current account's transactions (page `i` modulo their
 * number), the PSU present, a new interaction id each time. P3, P3PG and P10 all send it.
 */
export function transactionsPageTarget(origin: string, reader: AisReader): LoadTarget {
  return {
    origin,
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

/** Client credentials, consent, headless authorisation and code exchange, then page 1 of the current account. */
export async function aisReader(sandbox: SandboxEndpoint): Promise<AisReader> {
  const kit = await sandbox.onboard(['AISP', 'PISP'])
  const io = await floorIo(sandbox.caBundlePem, kit)
  try {
    const s = new JourneySession(io, { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, kit })
    await s.discover()
    await s.register()
    const cc = await s.token({ grant_type: 'client_credentials', scope: 'accounts' }, 'client-credentials token')
    const consentId = await s.aisConsent(cc)
    const code = await s.authorise(consentId, 'openid accounts')
    const accessToken = await s.token(
      { grant_type: 'authorization_code', code, redirect_uri: s.redirectUri },
      'code exchange',
    )
    const accounts = await s.http({
      method: 'GET',
      url: `${sandbox.baseUrl}${AIS_PATH}/accounts`,
      headers: s.dataHeaders(accessToken),
      mtls: true,
    })
    if (accounts.status !== 200) unexpected('accounts', accounts)
    const current = (json(accounts).Data.Account as Array<{ AccountId: string; AccountTypeCode?: string }>).find(
      (a) => a.AccountTypeCode === 'CACC',
    )
    if (!current) throw new Error(`no current account in ${accounts.text.slice(0, 300)}`)
    const page = await s.http({
      method: 'GET',
      url: `${sandbox.baseUrl}${AIS_PATH}/accounts/${current.AccountId}/transactions?page=1`,
      headers: s.dataHeaders(accessToken),
      mtls: true,
    })
    if (page.status !== 200) unexpected('transactions page 1', page)
    return {
      tls: { ca: sandbox.caBundlePem, cert: kit.transportCertPem, key: kit.transportKeyPem },
      accessToken,
      accountId: current.AccountId,
      totalPages: json(page).Meta.TotalPages as number,
      pageOne: page.text,
    }
  } finally {
    await io.close()
  }
}

interface FloorServer {
  origin: string
  pid: number
  stop(): Promise<void>
}

async function startFloorServer(dataDir: string, bodyFile: string, cpuProfDir?: string): Promise<FloorServer> {
  const prof = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []
  const child: ChildProcess = spawn(
    process.execPath,
    [...prof, '--import', 'tsx', join(REPO_ROOT, 'test/bench/throughput/floor-server.ts'), dataDir, bodyFile],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)))
  const port = await new Promise<number>((done, fail) => {
    let out = ''
    const timer = setTimeout(() => fail(new Error(`the floor server did not start within 20 s: ${stderr}`)), 20_000)
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      if (out.includes('\n')) {
        clearTimeout(timer)
        done((JSON.parse(out.slice(0, out.indexOf('\n'))) as { port: number }).port)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`the floor server exited with ${code}: ${stderr}`))
    })
  })
  return {
    origin: `https://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    },
  }
}

function runsText(runs: LoadRun[]): { rps: string; p50: string; p99: string } {
  return {
    rps: `${formatSpread(spread(runs.map((r) => r.rps)), 0)} req/s`,
    p50: formatSpread(spread(runs.map((r) => r.p50)), 2, ' ms'),
    p99: formatSpread(spread(runs.map((r) => r.p99)), 2, ' ms'),
  }
}

export const throughputBenchmark: Benchmark = {
  ids: ['P3'],
  title: 'P3 sandbox throughput vs bare https floor',
  async run(opts) {
    const sandbox = await startSandboxProcess({ cpuProfDir: opts.profileDir && join(opts.profileDir, 'p3-sandbox') })
    const work = mkdtempSync(join(tmpdir(), 'ob-bench-p3-'))
    let floor: FloorServer | undefined
    const pools: Pool[] = []
    try {
      const reader = await aisReader(sandbox)
      const bodyFile = join(work, 'page.json')
      writeFileSync(bodyFile, reader.pageOne)
      floor = await startFloorServer(sandbox.dataDir, bodyFile, opts.profileDir && join(opts.profileDir, 'p3-floor'))
      const targets: Record<'sandbox' | 'floor', LoadTarget> = {
        sandbox: transactionsPageTarget(sandbox.baseUrl, reader),
        floor: transactionsPageTarget(floor.origin, reader),
      }
      const pool = { sandbox: openPool(targets.sandbox, CONNECTIONS), floor: openPool(targets.floor, CONNECTIONS) }
      pools.push(pool.sandbox, pool.floor)
      const runs: Record<'sandbox' | 'floor', LoadRun[]> = { sandbox: [], floor: [] }
      const pids = { sandbox: sandbox.pid, floor: floor.pid }
      const cpuUsPerRequest: Record<'sandbox' | 'floor', number[]> = { sandbox: [], floor: [] }
      const warmup: Record<string, LoadRun> = {}
      for (const name of ['sandbox', 'floor'] as const) {
        opts.log(`throughput: warm-up ${name} ${WARMUP_MS / 1000} s`)
        warmup[name] = await runLoad(pool[name], targets[name], CONNECTIONS, WARMUP_MS)
      }
      for (let i = 0; i < RUNS; i++) {
        const order = i % 2 === 0 ? (['sandbox', 'floor'] as const) : (['floor', 'sandbox'] as const)
        for (const name of order) {
          const cpuBefore = processCpuMs(pids[name])
          const run = await runLoad(pool[name], targets[name], CONNECTIONS, RUN_MS)
          const cpuAfter = processCpuMs(pids[name])
          if (cpuBefore !== undefined && cpuAfter !== undefined)
            cpuUsPerRequest[name].push((1000 * (cpuAfter - cpuBefore)) / Math.max(1, run.requests))
          runs[name].push(run)
          opts.log(
            `throughput: run ${i + 1}/${RUNS} ${name}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, server CPU ${cpuUsPerRequest[name].at(-1)?.toFixed(0) ?? '?'} us/request, ${run.errors} errors`,
          )
        }
      }
      const errors = [...runs.sandbox, ...runs.floor].filter((r) => r.errors > 0)
      const data = {
        connections: CONNECTIONS,
        warmupMs: WARMUP_MS,
        runMs: RUN_MS,
        pages: reader.totalPages,
        bodyBytes: Buffer.byteLength(reader.pageOne),
        warmup,
        runs,
        serverCpuUsPerRequest: cpuUsPerRequest,
      }
      if (errors.length) {
        return [
          {
            id: 'P3',
            what: 'sandbox throughput vs bare https',
            target: 'no errors',
            verdict: 'error',
            note: `${errors.reduce((n, r) => n + r.errors, 0)} failed requests; first: ${errors[0]!.firstError}`,
            data,
          },
        ]
      }
      // Runs i of both servers are adjacent in time: their ratio cancels slow drifts in the machine's load.
      const pairs = spread(runs.sandbox.map((r, i) => r.rps / runs.floor[i]!.rps))
      const ratio = pairs.median
      const p99Pairs = spread(runs.sandbox.map((r, i) => r.p99 / runs.floor[i]!.p99))
      const st = runsText(runs.sandbox)
      const ft = runsText(runs.floor)
      const p99Pass = p99Pairs.median <= P99_RATIO_TARGET
      const pass = ratio >= RPS_RATIO_TARGET && p99Pass
      const results: BenchResult[] = [
        {
          id: 'P3',
          what: `sandbox transactions page, ${CONNECTIONS} conns`,
          figure: st.rps,
          peer: ft.rps,
          ratio,
          ratioText: formatSpread(pairs, 2),
          target: `>= ${RPS_RATIO_TARGET}x floor, p99 <= ${P99_RATIO_TARGET}x`,
          verdict: pass ? 'pass' : 'fail',
          note: `sandbox p50 ${st.p50}, p99 ${st.p99}; floor p50 ${ft.p50}, p99 ${ft.p99}. ${RUNS} runs of ${RUN_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up each; ${reader.totalPages} pages of ${Buffer.byteLength(reader.pageOne)} bytes (page 1) cycled; mTLS keep-alive.`,
          data,
        },
        {
          id: 'P3-p99',
          what: 'sandbox p99 latency under that load',
          figure: st.p99,
          peer: ft.p99,
          ratio: p99Pairs.median,
          ratioText: formatSpread(p99Pairs, 2),
          target: `<= ${P99_RATIO_TARGET}x floor`,
          verdict: p99Pass ? 'pass' : 'fail',
          note: `The median of ${RUNS} adjacent sandbox/floor pairs of runs' p99.`,
        },
      ]
      if (cpuUsPerRequest.sandbox.length && cpuUsPerRequest.floor.length) {
        const sc = spread(cpuUsPerRequest.sandbox)
        const fc = spread(cpuUsPerRequest.floor)
        results.push({
          id: 'P3-cpu',
          what: 'server CPU per request (user+sys)',
          figure: formatSpread(sc, 0, ' us'),
          peer: formatSpread(fc, 0, ' us'),
          ratio: sc.median / fc.median,
          ratioText: `${(sc.median / fc.median).toFixed(1)}x the floor's`,
          target: '(explains P3)',
          verdict: 'info',
          note: `CPU time of each server process over its runs divided by the requests it answered (less disturbed by other load than req/s). One core per server process caps it at 1e6 / (us per request): sandbox ${(1e6 / sc.median).toFixed(0)} req/s, floor ${(1e6 / fc.median).toFixed(0)} req/s.`,
        })
      }
      return results
    } finally {
      await Promise.all(pools.map((p) => p.close()))
      await floor?.stop()
      await sandbox.stop()
      rmSync(work, { recursive: true, force: true })
    }
  },
}
