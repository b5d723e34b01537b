/**
 * The bank-conformance lens: checks answers against the official OB v4.0 schemas and the bank's rules
 * (`check-answer.ts`) without holding up the engine. A small body is checked on a later turn of the event
 * loop (well under a millisecond); a bank API answer over `workerThreshold` (64 KiB: a transactions page of
 * 100 is about 80 KB) goes to one worker thread, started on first need and kept, so parsing and validating
 * pages, or one 10 MB answer, never blocks the calls the inspector waits on. Values in violations are passed through
 * the console's redaction: a secret never reaches a violation.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ConformanceDto } from '../contract/exchange.ts'
import { redactText } from '../core/redact-text.ts'
import { apiOf, checkAnswer, type AnswerToCheck } from './check-answer.ts'
import { ObSchemas } from './ob-schemas.ts'
import { findOpenApiDir } from './openapi-files.ts'
import type { WorkerRequest } from './conformance-worker.ts'

export interface ConformanceLensOptions {
  /** Bank API answers with bodies over this many bytes are checked in the worker thread. Default 64 KiB. */
  workerThreshold?: number
  /** The folder of the generated OpenAPI files (default: found beside the code, `findOpenApiDir`). */
  openApiDir?: string
  /** The worker's entry file (default: found beside the code, see `workerEntry`); tests give a broken one. */
  workerFile?: string
}

/**
 * How to start the worker from where this code runs: the built file beside this code's (out/cli, out/main), or
 * in the sources (tsx, vitest) a small script that registers tsx in the worker and imports the TypeScript.
 */
function workerEntry(): { file: string; eval?: boolean } | undefined {
  if (fileURLToPath(import.meta.url).endsWith('.ts')) {
    try {
      // tsx's public ESM API, resolved as an import resolves it (tsx is a development dependency: sources run only in a clone).
      const tsx = import.meta.resolve('tsx/esm/api')
      const source = new URL('./conformance-worker.ts', import.meta.url).href
      return {
        file: `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(source)}) })`,
        eval: true,
      }
    } catch {
      return undefined
    }
  }
  // out/cli and out/main: beside this code's file, or one folder up from a chunk in a subfolder of out/main.
  const file = ['./conformance-worker.js', '../conformance-worker.js']
    .map((p) => fileURLToPath(new URL(p, import.meta.url)))
    .find((f) => existsSync(f))
  return file ? { file } : undefined
}

const failed = (why: string): ConformanceDto => ({
  checked: false,
  violations: [],
  note: `The lens could not check this answer: ${why}`,
})

function masked(result: ConformanceDto): ConformanceDto {
  for (const v of result.violations) {
    v.message = redactText(v.message)
    if (v.value !== undefined) v.value = redactText(v.value)
  }
  return result
}

export class ConformanceLens {
  readonly #threshold: number
  readonly #dir: string | undefined
  readonly #workerFile: string | undefined
  #schemas: ObSchemas | undefined
  #worker: Worker | undefined
  #workerBroken: string | undefined
  readonly #waiting = new Map<number, { done: (r: ConformanceDto) => void; answer: AnswerToCheck }>()
  #seq = 0

  constructor(options: ConformanceLensOptions = {}) {
    this.#threshold = options.workerThreshold ?? 64 * 1024
    this.#dir = options.openApiDir ?? findOpenApiDir()
    this.#workerFile = options.workerFile
  }

  /** Checks one answer; never rejects (a failure is `checked: false` with a note saying why). */
  async check(answer: AnswerToCheck): Promise<ConformanceDto> {
    if (!this.#dir)
      return failed(
        'the official OpenAPI files (resources/openapi/account-info.json, payment-initiation.json) were not found.',
      )
    const size = typeof answer.body === 'string' ? answer.body.length : (answer.body?.byteLength ?? 0)
    // Only answers the lens judges by their body go to the worker; any other is told apart by its URL, here.
    if (size > this.#threshold && apiOf(answer.url, answer.baseUrl) && this.#startWorker())
      return this.#inWorker(answer)
    return this.#inThread(answer)
  }

  async #inThread(answer: AnswerToCheck): Promise<ConformanceDto> {
    await new Promise((resolve) => setImmediate(resolve))
    try {
      this.#schemas ??= ObSchemas.fromDir(this.#dir!)
      return masked(checkAnswer(this.#schemas, answer))
    } catch (err) {
      return failed((err as Error).message)
    }
  }

  /** True when the worker runs (started now if needed); false when it cannot, and large bodies are checked here. */
  #startWorker(): boolean {
    if (this.#worker) return true
    if (this.#workerBroken) return false
    const entry = this.#workerFile ? { file: this.#workerFile } : workerEntry()
    if (!entry) {
      this.#workerBroken = 'no worker entry beside the code'
      return false
    }
    const worker = new Worker(entry.file, entry.eval ? { eval: true } : {})
    worker.on('message', (m: { id: number; result?: ConformanceDto; error?: string }) => {
      const waiting = this.#waiting.get(m.id)
      this.#waiting.delete(m.id)
      if (!this.#waiting.size) worker.unref()
      waiting?.done(m.result ? masked(m.result) : failed(m.error ?? 'the worker answered nothing'))
    })
    // A worker that cannot start or dies (an entry a packaged app cannot load): its answers, and every large
    // one after, are checked on the event loop instead.
    const fail = (why: string) => {
      this.#workerBroken = why
      this.#worker = undefined
      for (const { done, answer } of this.#waiting.values()) void this.#inThread(answer).then(done)
      this.#waiting.clear()
    }
    worker.on('error', (err) => fail(err.message))
    worker.on('exit', (code) => {
      if (this.#worker === worker) fail(`exit code ${code}`)
    })
    worker.unref()
    this.#worker = worker
    return true
  }

  #inWorker(answer: AnswerToCheck): Promise<ConformanceDto> {
    const id = ++this.#seq
    const worker = this.#worker!
    return new Promise((resolve) => {
      this.#waiting.set(id, { done: resolve, answer })
      // Keep the process alive while an answer is being checked (a CLI run waits for it), not after.
      worker.ref()
      const request: WorkerRequest = { id, dir: this.#dir!, answer }
      worker.postMessage(request)
    })
  }

  /** Stops the worker thread, if one runs; answers still in it are given back as not checked (never left waiting). */
  async close(): Promise<void> {
    const w = this.#worker
    this.#worker = undefined
    for (const { done } of this.#waiting.values()) done(failed('the lens was closed before this answer was checked.'))
    this.#waiting.clear()
    if (w) await w.terminate()
  }
}
