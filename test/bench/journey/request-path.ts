/**
 * Where a P1 journey's time goes, request by request: each HTTP request's latency (from undici creating it
 * to its last byte, the response's chunks handled on the way) and the gap before it (from the previous
 * request's end, or the journey's start, to its creation: the client's own work on the critical path).
 * Recorded in each worker from undici's diagnostics channels, which the floor's `request()` and the engine's
 * `dispatch()` both publish on; the untimed clock move is left out of the gap it falls in.
 *
 * The floor and the engine make the same calls but not in the same order (the engine reads the JWKS when it
 * first checks a signature, the floor before its token request), so the two are compared by phase (the
 * registration, the AIS flow's setup, the pages it reads, and the PIS flow) and by request matched by what it is
 * (`requestKeys`), not by position.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { performance } from 'node:perf_hooks'
import { median } from '../lib/stats.ts'

/** One request of a journey: `METHOD /path` (query left out), and its gap and latency in ms. */
export interface PathRequest {
  label: string
  gapMs: number
  latencyMs: number
}

/** One journey's requests in the order they were made. */
export interface RequestPath {
  requests: PathRequest[]
}

const PATH_PHASES = ['registration', 'AIS setup', 'AIS pages', 'PIS'] as const
export type PathPhase = (typeof PATH_PHASES)[number]

/** One phase of a journey: the sums of its gaps and latencies (ms), and its number of requests. */
interface PhaseTotals {
  gapsMs: number
  latencyMs: number
  requests: number
}

interface Open {
  label: string
  createdAt: number
  gapMs: number
  latencyMs?: number
}

/**
 * Starts recording the requests made in this process. `begin()` and `end()` bound a journey;
 * `paused(ms)` leaves time spent outside the journey (the clock move) out of the gap it falls in.
 */
export function requestPathRecorder(): {
  begin(): void
  paused(ms: number): void
  end(): RequestPath
} {
  let journey: Open[] | undefined
  let lastEnd = 0
  let pausedMs = 0
  const open = new WeakMap<object, Open>()
  const onCreate = (message: unknown) => {
    if (!journey) return
    const request = (message as { request: { method: string; path: string } }).request
    const now = performance.now()
    const entry: Open = {
      label: `${request.method} ${request.path.split('?')[0]}`,
      createdAt: now,
      gapMs: now - lastEnd - pausedMs,
    }
    pausedMs = 0
    journey.push(entry)
    open.set(request, entry)
  }
  const onEnd = (message: unknown) => {
    const entry = open.get((message as { request: object }).request)
    if (!entry || entry.latencyMs !== undefined) return
    lastEnd = performance.now()
    entry.latencyMs = lastEnd - entry.createdAt
  }
  diagnosticsChannel.subscribe('undici:request:create', onCreate)
  diagnosticsChannel.subscribe('undici:request:trailers', onEnd)
  diagnosticsChannel.subscribe('undici:request:error', onEnd)
  return {
    begin() {
      journey = []
      lastEnd = performance.now()
      pausedMs = 0
    },
    paused(ms) {
      pausedMs += ms
    },
    end() {
      const requests = (journey ?? []).map((r) => ({
        label: r.label,
        gapMs: r.gapMs,
        latencyMs: r.latencyMs ?? NaN,
      }))
      journey = undefined
      return { requests }
    },
  }
}

/** A page the AIS flow reads: the accounts, their balances, their transactions. */
const isPage = (label: string) => /^GET \/open-banking\/v[\d.]+\/aisp\/accounts/.test(label)

/**
 * The phase of each request: the registration up to its `register` call, then the AIS flow's setup until
 * its first page, its pages, and everything after the last page (the PIS flow).
 */
export function phasesOf(path: RequestPath): PathPhase[] {
  const labels = path.requests.map((r) => r.label)
  const registered = labels.findIndex((l) => /^POST \S*\/register$/.test(l))
  const firstPage = labels.findIndex(isPage)
  const lastPage = labels.findLastIndex(isPage)
  return labels.map((_, i) => {
    if (i <= registered) return 'registration'
    if (firstPage < 0 || i < firstPage) return 'AIS setup'
    if (i <= lastPage) return 'AIS pages'
    return 'PIS'
  })
}

/** Per phase, the median over journeys of the sum of its gaps and of its latencies (ms). */
export interface PathSummary {
  gapsMs: number
  latencyMs: number
  phases: Record<PathPhase, PhaseTotals>
}

export function summarisePaths(paths: RequestPath[]): PathSummary {
  const sums = paths.map((path) => {
    const phases = phasesOf(path)
    const by = Object.fromEntries(PATH_PHASES.map((p) => [p, { gapsMs: 0, latencyMs: 0, requests: 0 }])) as Record<
      PathPhase,
      PhaseTotals
    >
    path.requests.forEach((r, i) => {
      const p = by[phases[i]!]
      p.gapsMs += r.gapMs
      p.latencyMs += r.latencyMs
      p.requests++
    })
    return by
  })
  const med = (pick: (s: (typeof sums)[number]) => number) => median(sums.map(pick))
  const phases = Object.fromEntries(
    PATH_PHASES.map((p) => [
      p,
      { gapsMs: med((s) => s[p].gapsMs), latencyMs: med((s) => s[p].latencyMs), requests: med((s) => s[p].requests) },
    ]),
  ) as PathSummary['phases']
  return {
    gapsMs: med((s) => PATH_PHASES.reduce((n, p) => n + s[p].gapsMs, 0)),
    latencyMs: med((s) => PATH_PHASES.reduce((n, p) => n + s[p].latencyMs, 0)),
    phases,
  }
}

/** A difference with its sign: `+1.2`, `-0.30`. */
const signed = (x: number, digits: number) => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`

/** `registration +1.2/-0.3 ms, …`: the engine's gaps and latencies over the floor's, phase by phase. */
export function describePathDifference(engine: PathSummary, floor: PathSummary): string {
  return PATH_PHASES.map((p) => {
    const e = engine.phases[p]
    const f = floor.phases[p]
    return `${p} (${e.requests} requests) gaps ${signed(e.gapsMs - f.gapsMs, 1)} ms, latencies ${signed(e.latencyMs - f.latencyMs, 1)} ms`
  }).join('; ')
}

/**
 * A request as the same request of another journey: its label with ids left out (a path segment with a digit,
 * but for a version such as `v4.0`), and which of those it is in the journey (`GET /.well-known/… #2`). The
 * engine and the floor make the same calls in different orders, so a request is matched by this, not its place.
 */
export function requestKeys(path: RequestPath): string[] {
  const seen = new Map<string, number>()
  return path.requests.map((r) => {
    const label = r.label
      .split('/')
      .map((seg) => (/\d/.test(seg) && !/^v\d+(\.\d+)*$/.test(seg) ? ':id' : seg))
      .join('/')
    const n = (seen.get(label) ?? 0) + 1
    seen.set(label, n)
    return `${label} #${n}`
  })
}

/** One request's median gap and latency (ms) over journeys, engine over floor. */
export interface RequestDifference {
  request: string
  gapMs: number
  latencyMs: number
}

/**
 * The requests whose gaps differ most between the engine and the floor (medians over each side's journeys,
 * largest difference first), with their latencies' difference beside: where the engine's own work sits.
 */
export function requestDifferences(engine: RequestPath[], floor: RequestPath[], count = 5): RequestDifference[] {
  const medians = (paths: RequestPath[]) => {
    const by = new Map<string, { gaps: number[]; latencies: number[] }>()
    for (const path of paths)
      requestKeys(path).forEach((key, i) => {
        const r = path.requests[i]!
        const m = by.get(key) ?? { gaps: [], latencies: [] }
        m.gaps.push(r.gapMs)
        m.latencies.push(r.latencyMs)
        by.set(key, m)
      })
    return new Map([...by].map(([key, m]) => [key, { gap: median(m.gaps), latency: median(m.latencies) }]))
  }
  const e = medians(engine)
  const f = medians(floor)
  return [...e]
    .filter(([key]) => f.has(key))
    .map(([request, m]) => ({
      request,
      gapMs: m.gap - f.get(request)!.gap,
      latencyMs: m.latency - f.get(request)!.latency,
    }))
    .sort((a, b) => Math.abs(b.gapMs) - Math.abs(a.gapMs))
    .slice(0, count)
}

/** `POST /token #1 gap +0.4 ms, latency -0.1 ms; …`. */
export function describeRequestDifferences(differences: RequestDifference[]): string {
  return differences
    .map((d) => `${d.request} gap ${signed(d.gapMs, 2)} ms, latency ${signed(d.latencyMs, 2)} ms`)
    .join('; ')
}
