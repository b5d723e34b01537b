/**
 * A bounded closed-loop load generator: `connections` workers on one undici Pool (one keep-alive mTLS
 * connection each), each sending the next request as soon as its previous answer's body is read, for a
 * fixed duration. Targets 127.0.0.1 only.
 */
import { Pool } from 'undici'
import { LatencyRecorder } from '../lib/stats.ts'

export interface LoadTarget {
  origin: string
  tls: { ca: string; cert: string; key: string }
  /** Request number `i`: a GET of `path` unless it names a method (and a body). */
  request(i: number): { path: string; headers: Record<string, string>; method?: 'GET' | 'POST'; body?: string }
  /** The status a good answer has (200 unless given). */
  status?: number
}

export interface LoadRun {
  durationMs: number
  /** Answers read before the end of the run (the rate's numerator). */
  requests: number
  /** Answers to requests in flight at the end, read after it: not in `requests`, but the server did the work. */
  late: number
  /** Answers other than the expected status, and transport errors. */
  errors: number
  firstError?: string
  rps: number
  p50: number
  p90: number
  p99: number
  max: number
  bytes: number
}

/** Opens the pool (connections made on first use) for a target. */
export function openPool(target: LoadTarget, connections: number): Pool {
  if (!/^https:\/\/127\.0\.0\.1:\d+$/.test(target.origin))
    throw new Error(`load targets 127.0.0.1 only, not ${target.origin}`)
  return new Pool(target.origin, { connections, pipelining: 1, connect: { ...target.tls, rejectUnauthorized: true } })
}

/** Transport errors after which a run gives up (a dead server must not spin the loop for the whole duration). */
const MAX_ERRORS = 1000

/**
 * Runs the load for `durationMs` (and at most `maxRequests` requests) with `concurrency` workers on
 * `pool`; requests still in flight at the end finish but are not counted.
 */
export async function runLoad(
  pool: Pool,
  target: LoadTarget,
  concurrency: number,
  durationMs: number,
  maxRequests = 2_000_000,
): Promise<LoadRun> {
  const latencies = new LatencyRecorder()
  let requests = 0
  let late = 0
  let errors = 0
  let bytes = 0
  let firstError: string | undefined
  let next = 0
  const start = performance.now()
  const deadline = start + durationMs
  async function worker(): Promise<void> {
    while (performance.now() < deadline && next < maxRequests && errors < MAX_ERRORS) {
      const { path, headers, method = 'GET', body: sent } = target.request(next++)
      const t0 = performance.now()
      try {
        const res = await pool.request({ method, path, headers, body: sent })
        const body = await res.body.arrayBuffer()
        const t1 = performance.now()
        if (t1 > deadline) {
          late++
          break
        }
        bytes += body.byteLength
        if (res.statusCode !== (target.status ?? 200)) {
          errors++
          firstError ??= `HTTP ${res.statusCode}: ${Buffer.from(body).toString('utf8').slice(0, 300)}`
        }
        requests++
        latencies.add(t1 - t0)
      } catch (err) {
        errors++
        firstError ??= (err as Error).message
        if (performance.now() > deadline) break
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsed = Math.min(performance.now(), deadline) - start
  const [p50, p90, p99, max] = latencies.quantiles([0.5, 0.9, 0.99, 1])
  return {
    durationMs: elapsed,
    requests,
    late,
    errors,
    firstError,
    rps: requests / (elapsed / 1000),
    p50: p50!,
    p90: p90!,
    p99: p99!,
    max: max!,
    bytes,
  }
}
