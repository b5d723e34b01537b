import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  describePathDifference,
  describeRequestDifferences,
  phasesOf,
  requestDifferences,
  requestKeys,
  requestPathRecorder,
  summarisePaths,
  type RequestPath,
} from '../../../bench/journey/request-path.ts'

let server: Server
let origin: string
beforeAll(async () => {
  // /slow answers after 30 ms; everything else at once.
  server = createServer((req, res) => {
    const answer = () => res.end('{}')
    if (req.url?.startsWith('/slow')) setTimeout(answer, 30)
    else answer()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const path = (...labels: string[]): RequestPath => ({
  requests: labels.map((label, i) => ({ label, gapMs: 1 + i, latencyMs: 10 })),
})

const JOURNEY = [
  'GET /.well-known/openid-configuration',
  'POST /dynamic-client-registration/v3.2/register',
  'GET /.well-known/openid-configuration',
  'POST /token',
  'GET /open-banking/v4.0/aisp/accounts',
  'GET /open-banking/v4.0/aisp/accounts/a1/transactions',
  'POST /token',
  'POST /open-banking/v4.0/pisp/domestic-payment-consents',
]

describe('requestPathRecorder', () => {
  it('records each request of a journey with its latency and the gap before it, the pause left out', async () => {
    const recorder = requestPathRecorder()
    await request(`${origin}/before`).then((r) => r.body.text()) // outside a journey: not recorded
    recorder.begin()
    await request(`${origin}/slow?x=1`, { method: 'POST', body: 'a' }).then((r) => r.body.text())
    const asleep = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 40))
    recorder.paused(performance.now() - asleep - 5) // all but 5 ms of that sleep were outside the journey's time
    await request(`${origin}/fast`).then((r) => r.body.text())
    const { requests } = recorder.end()
    await request(`${origin}/after`).then((r) => r.body.text())

    expect(requests.map((r) => r.label)).toEqual(['POST /slow', 'GET /fast'])
    expect(requests[0]!.latencyMs).toBeGreaterThanOrEqual(29)
    expect(requests[1]!.latencyMs).toBeLessThan(requests[0]!.latencyMs)
    expect(requests[1]!.gapMs).toBeGreaterThanOrEqual(5)
    expect(requests[1]!.gapMs).toBeLessThan(30)
    expect(recorder.end().requests).toEqual([]) // nothing after end()
  })
})

describe('phasesOf', () => {
  it('splits a journey into the registration, the AIS setup, its pages and the PIS part', () => {
    expect(phasesOf(path(...JOURNEY))).toEqual([
      'registration',
      'registration',
      'AIS setup',
      'AIS setup',
      'AIS pages',
      'AIS pages',
      'PIS',
      'PIS',
    ])
  })
})

describe('summarisePaths', () => {
  it('sums each phase per journey and takes the median over journeys', () => {
    const fast = path(...JOURNEY)
    const slow: RequestPath = {
      requests: fast.requests.map((r) => ({ ...r, gapMs: r.gapMs * 3, latencyMs: r.latencyMs * 3 })),
    }
    const s = summarisePaths([fast, fast, slow])
    expect(s.phases.registration).toEqual({ gapsMs: 1 + 2, latencyMs: 20, requests: 2 })
    expect(s.phases['AIS pages']).toEqual({ gapsMs: 5 + 6, latencyMs: 20, requests: 2 })
    expect(s.gapsMs).toBe(36)
    expect(s.latencyMs).toBe(80)
    expect(describePathDifference(summarisePaths([slow]), s)).toBe(
      'registration (2 requests) gaps +6.0 ms, latencies +40.0 ms; AIS setup (2 requests) gaps +14.0 ms, latencies +40.0 ms; AIS pages (2 requests) gaps +22.0 ms, latencies +40.0 ms; PIS (2 requests) gaps +30.0 ms, latencies +40.0 ms',
    )
  })
})

describe('requestDifferences', () => {
  const req = (label: string, gapMs: number, latencyMs = 10) => ({ label, gapMs, latencyMs })

  it('names each request by what it is and which of its kind, ids left out and versions kept', () => {
    const keys = requestKeys({
      requests: [
        req('GET /.well-known/openid-configuration', 1),
        req('POST /dynamic-client-registration/v3.2/register', 1),
        req('GET /.well-known/openid-configuration', 1),
        req('GET /open-banking/v4.0/aisp/accounts/22289/transactions', 1),
        req('GET /open-banking/v4.0/aisp/accounts/22290/transactions', 1),
        req('GET /open-banking/v4.0/pisp/domestic-payments/5f1c2e7a-0b9d-4c1e-9a7f-2d3b4c5d6e7f', 1),
      ],
    })
    expect(keys).toEqual([
      'GET /.well-known/openid-configuration #1',
      'POST /dynamic-client-registration/v3.2/register #1',
      'GET /.well-known/openid-configuration #2',
      'GET /open-banking/v4.0/aisp/accounts/:id/transactions #1',
      'GET /open-banking/v4.0/aisp/accounts/:id/transactions #2',
      'GET /open-banking/v4.0/pisp/domestic-payments/:id #1',
    ])
  })

  it('matches the same request in journeys made in different orders, and lists the largest gap differences first', () => {
    // The engine reads the JWKS after its token, the floor before it: matched by what each request is.
    const engine = [1, 2, 3].map(() => ({
      requests: [req('GET /discovery', 3, 12), req('POST /token', 1.5), req('GET /jwks', 0.2), req('GET /a', 1)],
    }))
    const floor = [1, 2, 3].map(() => ({
      requests: [req('GET /discovery', 1, 10), req('GET /jwks', 0.3), req('POST /token', 1), req('GET /a', 1)],
    }))
    const d = requestDifferences(engine, floor, 3)
    expect(d.map((x) => x.request)).toEqual(['GET /discovery #1', 'POST /token #1', 'GET /jwks #1'])
    expect(d[0]).toEqual({ request: 'GET /discovery #1', gapMs: 2, latencyMs: 2 })
    expect(d[2]!.gapMs).toBeCloseTo(-0.1)
    expect(describeRequestDifferences(d.slice(0, 2))).toBe(
      'GET /discovery #1 gap +2.00 ms, latency +2.00 ms; POST /token #1 gap +0.50 ms, latency +0.00 ms',
    )
  })

  it('takes each request’s median over journeys, and leaves out a request only one side made', () => {
    const engine = [5, 1, 1].map((g) => ({ requests: [req('GET /a', g), req('GET /only-engine', 9)] }))
    const floor = [1, 1, 1].map((g) => ({ requests: [req('GET /a', g)] }))
    expect(requestDifferences(engine, floor)).toEqual([{ request: 'GET /a #1', gapMs: 0, latencyMs: 0 }])
  })
})
