/**
 * P1 and P2: the full journey against the local sandbox (a child process), timed for
 *  - the floor: undici + jose directly, one keep-alive agent per origin (journey/floor-io.ts),
 *  - the by-hand peer: one curl or openssl process per call (journey/curl-io.ts),
 *  - the console engine: the slot in journey/engine-journey.ts ("not measured yet" until it is filled).
 * Runs are interleaved in rounds so that noise from other work on the machine falls on every variant.
 */
import { join } from 'node:path'
import { curlIo } from './journey/curl-io.ts'
import { engineJourney, type EngineJourney, type EngineJourneyTarget } from './journey/engine-journey.ts'
import { floorIo } from './journey/floor-io.ts'
import { runJourney, SETTLE_SECONDS, type JourneyResult } from './journey/journey.ts'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { processCpuMs } from './lib/proc-cpu.ts'
import { startSandboxProcess } from './lib/sandbox-process.ts'
import { formatSpread, spread } from './lib/stats.ts'

/**
 * Rounds of measurement, all on one sandbox process, as a developer runs it for a session (warm after the
 * warm-up journeys): FLOOR_PER_ROUND floor and as many engine journeys, alternating (which goes first
 * alternates by round), then CURL_PER_ROUND curl journeys. Every journey moves the sandbox clock 10 s to
 * settle its payment; the consent's `TransactionToDateTime` (`HISTORY_TO`) keeps the history every
 * journey reads the same however far the clock has moved.
 */
const ROUNDS = 10
const FLOOR_PER_ROUND = 2
const CURL_PER_ROUND = 1
const WARMUP_FLOOR = 3

const P1_TARGET = 1.1
const P2_TARGET = 10

interface MeasuredJourney extends JourneyResult {
  /** CPU time the sandbox process used during the journey (Linux /proc), ms. */
  sandboxCpuMs?: number
  /**
   * CPU time of the bench process during the journey (user + system, `process.cpuUsage`), ms: the client
   * stack's own work for the floor and the engine (a curl journey's work is in its child processes).
   */
  clientCpuMs: number
}

/**
 * `mean 74 ms, median 70 ms (50-120)` over the runs that have the figure. /proc counts CPU in 10 ms ticks,
 * so the mean is the steadier figure.
 */
function sandboxCpu(results: MeasuredJourney[]): string {
  const xs = results.map((r) => r.sandboxCpuMs).filter((x): x is number => x !== undefined)
  return xs.length ? `mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(0)} ms, median ${formatSpread(spread(xs), 0, ' ms')}` : 'unknown (no /proc)'
}

function ms(results: JourneyResult[]) {
  return spread(results.map((r) => r.ms))
}

function describe(r: JourneyResult): string {
  return `${r.calls} calls, ${r.accounts} accounts, ${r.transactions} transactions in ${r.pages} pages, payment ${r.paymentStatus}, ${r.verified} signatures verified`
}

export const journeyBenchmark: Benchmark = {
  ids: ['P1', 'P2'],
  title: 'P1/P2 journey: floor, curl, engine',
  async run(opts) {
    const sandbox = await startSandboxProcess({ ...(opts.profileDir ? { cpuProfDir: join(opts.profileDir, 'p1-sandbox') } : {}) })
    let engine: EngineJourney | undefined
    try {
      const kit = await sandbox.onboard(['AISP', 'PISP'])
      const target: EngineJourneyTarget = {
        baseUrl: sandbox.baseUrl,
        authUrl: sandbox.authUrl,
        directoryUrl: sandbox.directoryUrl,
        caBundlePem: sandbox.caBundlePem,
        caBundlePath: sandbox.caBundlePath,
        kit,
        // The clock move is left out of the journey's time (journey.ts) and of the sandbox's CPU (below).
        beforeStatus: async () => {
          const before = processCpuMs(sandbox.pid)
          await sandbox.advanceClock(SETTLE_SECONDS)
          const after = processCpuMs(sandbox.pid)
          if (before !== undefined && after !== undefined) clockMoveCpuMs += after - before
        },
      }
      let clockMoveCpuMs = 0
      /** Runs one journey and adds the sandbox's CPU time during it (all of its work for that journey). */
      const measured = async (journey: () => Promise<JourneyResult>): Promise<MeasuredJourney> => {
        clockMoveCpuMs = 0
        const before = processCpuMs(sandbox.pid)
        const client = process.cpuUsage()
        const r = await journey()
        const used = process.cpuUsage(client)
        const after = processCpuMs(sandbox.pid)
        return { ...r, sandboxCpuMs: before !== undefined && after !== undefined ? after - before - clockMoveCpuMs : undefined, clientCpuMs: (used.user + used.system) / 1000 }
      }
      const floorOnce = () => measured(async () => {
        const io = await floorIo(sandbox.caBundlePem, kit)
        try {
          return await runJourney(io, target)
        } finally {
          await io.close()
        }
      })
      const curlOnce = () => measured(async () => {
        const io = curlIo(sandbox.caBundlePath, kit)
        try {
          return await runJourney(io, target)
        } finally {
          await io.close()
        }
      })
      engine = await engineJourney()
      const runEngine = 'run' in engine ? engine.run.bind(engine) : undefined
      const engineOnce = runEngine ? () => measured(() => runEngine(target)) : undefined

      opts.log(`journey: warm-up (${WARMUP_FLOOR} floor, 1 curl${engineOnce ? `, ${WARMUP_FLOOR} engine` : ''})`)
      for (let i = 0; i < WARMUP_FLOOR; i++) {
        await floorOnce()
        await engineOnce?.()
      }
      await curlOnce()

      const floor: MeasuredJourney[] = []
      const curl: MeasuredJourney[] = []
      const eng: MeasuredJourney[] = []
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < FLOOR_PER_ROUND; i++) {
          if (round % 2 === 0) {
            floor.push(await floorOnce())
            if (engineOnce) eng.push(await engineOnce())
          } else {
            if (engineOnce) eng.push(await engineOnce())
            floor.push(await floorOnce())
          }
        }
        for (let i = 0; i < CURL_PER_ROUND; i++) curl.push(await curlOnce())
        opts.log(`journey: round ${round + 1}/${ROUNDS}: floor ${floor.at(-1)!.ms.toFixed(0)} ms, curl ${curl.at(-1)!.ms.toFixed(0)} ms${engineOnce ? `, engine ${eng.at(-1)!.ms.toFixed(0)} ms` : ''}`)
      }

      const f = ms(floor)
      const c = ms(curl)
      const sameCalls = new Set([...floor, ...curl, ...eng].map((r) => `${r.calls}/${r.transactions}/${r.pages}`)).size === 1
      const floorText = `${formatSpread(f, 0, ' ms')} n=${f.n}`
      const curlText = `${formatSpread(c, 0, ' ms')} n=${c.n}`
      const raw = { floor, curl, engine: eng, rounds: ROUNDS, floorPerRound: FLOOR_PER_ROUND, curlPerRound: CURL_PER_ROUND, warmupFloor: WARMUP_FLOOR, settleSeconds: SETTLE_SECONDS }
      const results: BenchResult[] = []

      if (!sameCalls) {
        results.push({ id: 'P1/P2', what: 'journey: floor, curl and engine make the same calls', target: 'equal calls', verdict: 'error', note: `floor: ${describe(floor[0]!)}; curl: ${describe(curl[0]!)}${eng[0] ? `; engine: ${describe(eng[0])}` : ''}`, data: raw })
        return results
      }
      if ('notMeasured' in engine) {
        results.push({ id: 'P1', what: 'journey, engine vs floor (undici+jose)', peer: floorText, target: `engine/floor <= ${P1_TARGET.toFixed(2)}`, verdict: 'not measured', note: `not measured yet: ${engine.notMeasured}`, data: raw })
        results.push({ id: 'P2', what: 'journey, engine vs one curl per call', peer: curlText, target: `>= ${P2_TARGET}x faster`, verdict: 'not measured', note: 'not measured yet: the engine side of the journey (see P1)' })
      } else {
        const e = ms(eng)
        const engineText = `${formatSpread(e, 0, ' ms')} n=${e.n}`
        // Engine journey i ran next to floor journey i (same round, alternating order): their ratio
        // cancels the machine's slow drifts, as P3 does with adjacent runs.
        const pairs = spread(eng.map((r, i) => r.ms / floor[i]!.ms))
        const r1 = pairs.median
        const r2 = c.median / e.median
        const engineCalls = eng[0] ? ` Engine: ${describe(eng[0])}.` : ''
        results.push({
          id: 'P1', what: 'journey, engine vs floor (undici+jose)', figure: engineText, peer: floorText, ratio: r1, ratioText: `${formatSpread(pairs, 2)} engine/floor`,
          target: `engine/floor <= ${P1_TARGET.toFixed(2)}`, verdict: r1 <= P1_TARGET ? 'pass' : 'fail',
          note: `Ratio: the median of ${pairs.n} adjacent engine/floor pairs (median/median: ${(e.median / f.median).toFixed(2)}). Floor: ${describe(floor[0]!)}.${engineCalls} Both count discovery and JWKS twice (each of the engine's flows reads them; the floor re-reads them before its PIS part).`,
          data: raw,
        })
        const ec = spread(eng.map((r) => r.clientCpuMs))
        const fcpu = spread(floor.map((r) => r.clientCpuMs))
        results.push({
          id: 'P1-cpu', what: 'client CPU per journey, engine vs floor', figure: formatSpread(ec, 0, ' ms'), peer: formatSpread(fcpu, 0, ' ms'), ratio: ec.median / fcpu.median,
          ratioText: `${(ec.median / fcpu.median).toFixed(2)}x the floor's`, target: '(explains P1)', verdict: 'info',
          note: 'CPU time (user+system) of the bench process during each journey: the client stack\'s own work, less disturbed by other load than wall time. Includes the exchange log, step machine, settings and checks of the engine.',
        })
        results.push({ id: 'P2', what: 'journey, engine vs one curl per call', figure: engineText, peer: curlText, ratio: r2, ratioText: `${r2.toFixed(1)}x faster`, target: `>= ${P2_TARGET}x faster`, verdict: r2 >= P2_TARGET ? 'pass' : 'fail' })
      }
      const fc = c.median / f.median
      results.push({
        id: 'P1-floor',
        what: 'journey floor: undici+jose',
        figure: floorText,
        target: '(context for P1)',
        verdict: 'info',
        note: `Floor: ${describe(floor[0]!)}; curl makes the same calls (${curl[0]!.calls}) with no signature checks. Sandbox CPU per journey: ${sandboxCpu(floor)} during floor journeys, ${sandboxCpu(curl)} during curl journeys (a new TLS handshake per call).`,
      })
      results.push({
        id: 'P2-floor',
        what: 'journey floor vs curl: the ceiling for P2',
        figure: floorText,
        peer: curlText,
        ratio: fc,
        ratioText: `${fc.toFixed(1)}x faster`,
        target: '(context for P2)',
        verdict: 'info',
        note: `The floor is ${fc.toFixed(1)}x faster than curl: an engine at the P1 limit (1.10x the floor) would be ${(fc / P1_TARGET).toFixed(1)}x faster than curl.`,
      })
      return results
    } catch (err) {
      throw new Error(`${(err as Error).message}\nsandbox stderr (last lines): ${sandbox.stderrTail().slice(-1500)}`, { cause: err })
    } finally {
      if (engine && 'close' in engine) await engine.close()
      await sandbox.stop()
    }
  },
}
