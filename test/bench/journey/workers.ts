/** The bench's side of a journey worker (journey/worker.ts): start it, run journeys in it, close it. */
import { fork, type ChildProcess } from 'node:child_process'
import type { EngineJourneyTarget } from './engine-journey.ts'
import type { FromWorker, ToWorker, WorkerJourney, WorkerVariant } from './worker.ts'

export interface JourneyWorker {
  readonly variant: WorkerVariant
  readonly pid: number
  /** Runs one journey; `moveClock` is called (and awaited) where the journey moves the sandbox clock. */
  run(moveClock: () => Promise<void>): Promise<WorkerJourney>
  /** Opens the data view of the last journey (engine only): how long building its rows took. */
  dataView(): Promise<{ ms: number; rows: number }>
  close(): Promise<void>
}

/**
 * Starts a worker for `variant` against `target` (the clock move is the bench's: see `run`), from `file`: the
 * bundle of `worker.ts` (journey/build-worker.ts), or `worker.ts` itself, run through tsx. With `cpuProfDir`,
 * the worker writes a V8 CPU profile there when it closes.
 */
export async function startJourneyWorker(
  variant: WorkerVariant,
  target: Omit<EngineJourneyTarget, 'beforeStatus'>,
  file: string,
  cpuProfDir?: string,
): Promise<JourneyWorker> {
  const child: ChildProcess = fork(file, [variant], {
    execArgv: [
      ...(file.endsWith('.ts') ? ['--import', 'tsx'] : []),
      ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-3000)))
  const send = (m: ToWorker) => child.send(m)
  const next = (onClock?: () => Promise<void>) =>
    new Promise<FromWorker>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`the ${variant} journey worker exited (${code}): ${stderr}`))
      const onMessage = (m: FromWorker) => {
        if (m.type === 'clock' && onClock) {
          void onClock().then(
            () => send({ type: 'clock-done' }),
            (err: Error) => {
              child.off('message', onMessage)
              child.off('exit', onExit)
              reject(err)
            },
          )
          return
        }
        child.off('message', onMessage)
        child.off('exit', onExit)
        resolve(m)
      }
      child.on('message', onMessage)
      child.once('exit', onExit)
    })
  send({ type: 'init', target })
  const ready = await next()
  if (ready.type !== 'ready')
    throw new Error(`the ${variant} journey worker did not start: ${JSON.stringify(ready)} ${stderr}`)
  return {
    variant,
    pid: child.pid!,
    async run(moveClock) {
      send({ type: 'run' })
      const m = await next(moveClock)
      if (m.type === 'result') return m.result
      throw new Error(`${variant} journey: ${m.type === 'error' ? m.message : JSON.stringify(m)}`)
    },
    async dataView() {
      send({ type: 'data-view' })
      const m = await next()
      if (m.type === 'data-view') return { ms: m.ms, rows: m.rows }
      throw new Error(`${variant} data view: ${m.type === 'error' ? m.message : JSON.stringify(m)}`)
    },
    async close() {
      if (child.exitCode !== null || !child.connected) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      send({ type: 'close' })
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}
