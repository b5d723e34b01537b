/**
 * The worker thread of the bank-conformance lens: checks large answers (a 10 MB transactions page) off the
 * engine's event loop, so the inspector's calls are answered while it parses and validates. Its schemas are
 * read once, on its first message, and each compiled once (or taken from out/validators/, lens-validators.ts).
 * Built as its own entry: out/cli/conformance-worker.js (scripts/build-cli.mjs) and out/main/conformance-worker.js
 * (electron.vite.config.ts).
 */
import { parentPort } from 'node:worker_threads'
import { checkAnswer, type AnswerToCheck } from './check-answer.ts'
import { ObSchemas } from './ob-schemas.ts'

/** What the lens sends: one answer, and the folder of the OpenAPI files it found. */
export interface WorkerRequest {
  id: number
  dir: string
  answer: AnswerToCheck
}

let schemas: ObSchemas | undefined

parentPort?.on('message', (m: WorkerRequest) => {
  try {
    schemas ??= ObSchemas.fromDir(m.dir)
    parentPort!.postMessage({ id: m.id, result: checkAnswer(schemas, m.answer) })
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: (err as Error)?.message ?? String(err) })
  }
})
