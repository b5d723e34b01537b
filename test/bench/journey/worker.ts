/**
 * A P1 journey runner in a process of its own (`node --import tsx worker.ts floor|engine`), driven by the
 * bench over IPC (journey/workers.ts). The floor and the engine each get one, so each pays for its own heap
 * and garbage collection and neither runs in the other's event loop; the bench alternates between them.
 *
 * Messages: `{ type: 'init', target }` -> `{ type: 'ready' }`; `{ type: 'run' }` -> `{ type: 'clock' }`
 * (the sandbox clock is to move: the bench moves it, untimed, and answers `{ type: 'clock-done' }`) ->
 * `{ type: 'result', result }` or `{ type: 'error', message }`; `{ type: 'data-view' }` (engine only) ->
 * `{ type: 'data-view', ms, rows }` or `{ type: 'error', message }`; `{ type: 'close' }` -> exit.
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks'
import { engineJourney, type EngineJourney, type EngineJourneyTarget } from './engine-journey.ts'
import { floorIo } from './floor-io.ts'
import { runJourney, type JourneyResult } from './journey.ts'
import { requestPathRecorder, type RequestPath } from './request-path.ts'

export type WorkerVariant = 'floor' | 'engine'

/** What a worker reports for one journey. */
export interface WorkerJourney extends JourneyResult {
  /** CPU time (user + system, all threads) of the worker process during the journey, ms. */
  clientCpuMs: number
  /** Its requests' gaps and latencies (request-path.ts). */
  path: RequestPath
  /**
   * The garbage collections of the worker's main thread that began in the journey's timed part: their pauses, ms,
   * minor (scavenges) and major (mark-compacts and their incremental marking steps) apart.
   */
  gc: { minorMs: number; minor: number; majorMs: number; major: number }
}

export type ToWorker =
  | { type: 'init'; target: Omit<EngineJourneyTarget, 'beforeStatus'> }
  | { type: 'run' }
  | { type: 'clock-done' }
  | { type: 'data-view' }
  | { type: 'close' }
export type FromWorker =
  | { type: 'ready' }
  | { type: 'clock' }
  | { type: 'result'; result: WorkerJourney }
  | { type: 'data-view'; ms: number; rows: number }
  | { type: 'error'; message: string }

const variant = process.argv[2] as WorkerVariant
if (variant !== 'floor' && variant !== 'engine')
  throw new Error(`worker.ts: the variant is floor or engine, not ${variant}`)
if (!process.send)
  throw new Error('worker.ts runs as a child process with an IPC channel (journey/workers.ts starts it)')

const send = (m: FromWorker) => process.send!(m)
let target: EngineJourneyTarget | undefined
let engine: EngineJourney | undefined
let clockDone: (() => void) | undefined

const requests = requestPathRecorder()

/** The main thread's collections since the last journey began (Node reports each as a `gc` performance entry). */
let collections: PerformanceEntry[] = []
new PerformanceObserver((list) => collections.push(...list.getEntries())).observe({ entryTypes: ['gc'] })

/** The collections that began in the timed spans, minor (scavenges) and major (mark-compacts) apart. */
function collectionsIn(timed: Array<[number, number]>): WorkerJourney['gc'] {
  const gc = { minorMs: 0, minor: 0, majorMs: 0, major: 0 }
  for (const e of collections) {
    if (!timed.some(([from, to]) => e.startTime >= from && e.startTime <= to)) continue
    const kind = (e as { detail?: { kind?: number } }).detail?.kind
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      gc.minor++
      gc.minorMs += e.duration
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) {
      gc.major++
      gc.majorMs += e.duration
    }
  }
  return gc
}

/** The clock move, done by the bench (it accounts for the sandbox's CPU around it); out of the request path too. */
const beforeStatus = async () => {
  const asked = performance.now()
  await new Promise<void>((resolve) => {
    clockDone = resolve
    send({ type: 'clock' })
  })
  requests.paused(performance.now() - asked)
}

async function once(t: EngineJourneyTarget): Promise<JourneyResult> {
  if (variant === 'engine') {
    engine ??= await engineJourney()
    return engine.run(t)
  }
  const io = await floorIo(t.caBundlePem, t.kit)
  try {
    return await runJourney(io, t)
  } finally {
    await io.close()
  }
}

process.on('message', (m: ToWorker) => {
  void (async () => {
    switch (m.type) {
      case 'init':
        target = { ...m.target, beforeStatus }
        send({ type: 'ready' })
        return
      case 'clock-done':
        clockDone?.()
        clockDone = undefined
        return
      case 'run': {
        try {
          const cpu = process.cpuUsage()
          collections = []
          requests.begin()
          const r = await once(target!)
          const path = requests.end()
          const used = process.cpuUsage(cpu)
          // The observer is told of a collection on a later turn: one made in the journey's last moments comes now.
          await new Promise((resolve) => setImmediate(resolve))
          const gc = collectionsIn(r.timed)
          send({ type: 'result', result: { ...r, clientCpuMs: (used.user + used.system) / 1000, path, gc } })
        } catch (err) {
          send({ type: 'error', message: (err as Error).stack ?? String(err) })
        }
        return
      }
      case 'data-view':
        try {
          if (!engine) throw new Error(`the ${variant} worker has no data view: only the engine's journeys keep one`)
          send({ type: 'data-view', ...(await engine.dataView()) })
        } catch (err) {
          send({ type: 'error', message: (err as Error).stack ?? String(err) })
        }
        return
      case 'close':
        await engine?.close()
        process.disconnect()
        return
    }
  })()
})
