/**
 * `npm run bench`: runs the benchmark suite, prints a table and writes test/bench/results.json with the
 * raw samples. Not part of `npm test`. Every figure is a median over repeated runs, compared with a floor
 * or peer measured in the same run (the machines are noisy and shared).
 *
 *   npm run bench                    all benchmarks (about four minutes, plus about two for P3PG and P10PG and three for P10)
 *   npm run bench -- --only P3       a subset (ids: P1..P9, P3PG, P10PG, P10; P1 and P2 run together, so do P4, P5 and P6, and P7 and P8)
 *   npm run bench -- --profile DIR   also write V8 CPU profiles of the servers under test into DIR
 *   npm run bench -- --no-write      do not overwrite results.json
 *   OB_BENCH_SANDBOX_ROOT=DIR npm run bench   run the sandbox from another checkout (measure a sandbox change)
 *   OB_BENCH_CLI_ROOT=DIR npm run bench -- --only P7   P7/P8 measure the command line of another checkout
 *
 * Exit code: 0 when nothing failed (a "not measured" row is not a failure), 1 on a failed target or a
 * benchmark that could not run, 2 on a bad command line.
 */
import { cpus, loadavg, totalmem } from 'node:os'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { bodyCapBenchmark } from './body-cap-bench.ts'
import { clusterBenchmark } from './cluster-bench.ts'
import { journeyBenchmark } from './journey-bench.ts'
import { paymentBenchmark } from './payment-bench.ts'
import { formatTable, type Benchmark, type BenchResult } from './lib/report.ts'
import { summariseProfiles } from './lib/cpu-profile.ts'
import { REPO_ROOT, SANDBOX_ROOT } from './lib/sandbox-process.ts'
import { startupBenchmark } from './startup-bench.ts'
import { storeBenchmark } from './store-bench.ts'
import { throughputBenchmark } from './throughput-bench.ts'
import { uiBenchmark } from './ui-bench.ts'

const BENCHMARKS: Benchmark[] = [
  journeyBenchmark,
  throughputBenchmark,
  storeBenchmark,
  paymentBenchmark,
  clusterBenchmark,
  uiBenchmark,
  startupBenchmark,
  bodyCapBenchmark,
]
const HERE = dirname(fileURLToPath(import.meta.url))

async function main(): Promise<number> {
  let values
  try {
    values = parseArgs({
      options: { only: { type: 'string' }, profile: { type: 'string' }, 'no-write': { type: 'boolean' } },
      strict: true,
    }).values
  } catch (err) {
    process.stderr.write(
      `bench: ${(err as Error).message}\nusage: npm run bench -- [--only P1,P3] [--profile DIR] [--no-write]\n`,
    )
    return 2
  }
  const only = values.only
    ?.split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean)
  const known = BENCHMARKS.flatMap((b) => b.ids)
  const unknown = only?.filter((id) => !known.includes(id)) ?? []
  if (unknown.length) {
    process.stderr.write(`bench: unknown id ${unknown.join(', ')}; the ids are ${known.join(', ')}\n`)
    return 2
  }
  const profileDir = values.profile ? resolve(values.profile) : undefined
  if (profileDir) mkdirSync(profileDir, { recursive: true })
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  if (SANDBOX_ROOT !== REPO_ROOT) log(`the sandbox under test runs from ${SANDBOX_ROOT} (OB_BENCH_SANDBOX_ROOT)`)

  const started = Date.now()
  const loadStart = loadavg()
  const results: BenchResult[] = []
  for (const b of BENCHMARKS) {
    if (only && !b.ids.some((id) => only.includes(id))) continue
    log(`${b.title}`)
    const t0 = Date.now()
    try {
      results.push(...(await b.run({ profileDir, log })))
    } catch (err) {
      const e = err as Error
      results.push({
        id: b.ids.join('/'),
        what: b.title,
        target: '-',
        verdict: 'error',
        note: `could not run: ${e.message}`,
        data: { stack: e.stack },
      })
    }
    log(`${b.title}: ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  }

  const table = formatTable(results)
  process.stdout.write(`\n${table}\n`)
  const cpu = cpus()
  const report = {
    generatedAt: new Date(started).toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    machine: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpu.length,
      cpuModel: cpu[0]?.model,
      totalMemGb: +(totalmem() / 2 ** 30).toFixed(1),
      loadavgStart: loadStart,
      loadavgEnd: loadavg(),
    },
    only: only ?? null,
    sandboxRoot: SANDBOX_ROOT === REPO_ROOT ? '.' : SANDBOX_ROOT,
    results,
  }
  if (!values['no-write']) {
    writeFileSync(join(HERE, 'results.json'), JSON.stringify(report, null, 2) + '\n')
    log(`wrote ${join(HERE, 'results.json')}`)
  }
  if (profileDir) process.stdout.write(`\n${summariseProfiles(profileDir)}\n`)
  log(
    `done in ${report.durationSeconds.toFixed(0)} s (load average ${loadStart.map((x) => x.toFixed(1)).join(' ')} at start)`,
  )
  return results.some((r) => r.verdict === 'fail' || r.verdict === 'error') ? 1 : 0
}

process.exitCode = await main()
