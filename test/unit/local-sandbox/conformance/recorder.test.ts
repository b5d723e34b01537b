import { describe, expect, it } from 'vitest'
import { ConformanceProbe, tokenHash } from '../../../../src-main/local-sandbox/conformance/probe.ts'
import { ConformanceRecorder, type FinishedRequest } from '../../../../src-main/local-sandbox/conformance/recorder.ts'
import { CONFORMANCE_RULES } from '../../../../src-main/local-sandbox/conformance/rules.ts'

let n = 0
function request(over: Partial<FinishedRequest> = {}): FinishedRequest {
  n++
  return {
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    method: 'GET',
    path: '/open-banking/v4.0/aisp/accounts',
    interactionId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    status: 200,
    thumbprint: 'thumb-a',
    interactionIdSent: crypto.randomUUID(),
    ...over,
  }
}

function probeFor(clientId: string, token = `tok-${clientId}`, expiresAt = 2_000): ConformanceProbe {
  const p = new ConformanceProbe()
  p.tokenAccepted(token, {
    clientId,
    grant: 'authorization_code',
    scopes: ['accounts'],
    expiresAt,
    certificateThumbprint: 'thumb-a',
  })
  return p
}

describe('ConformanceRecorder', () => {
  it("folds a request's outcomes per rule: one failure (details joined) or one pass", () => {
    const r = new ConformanceRecorder(() => 1_000)
    const p = probeFor('c1')
    p.pass('headers.required')
    p.fail('headers.required', 'no Accept')
    p.fail('headers.required', 'bad date')
    p.pass('schema.request-body')
    r.finish(p, request({ status: 400 }))
    const report = r.report('c1')!
    const line = (id: string) => report.rules.find((x) => x.id === id)!
    expect(line('headers.required')).toMatchObject({ passed: 0, failed: 1 })
    expect(line('headers.required').lastFailures[0]).toMatchObject({
      detail: 'no Accept | bad date',
      status: 400,
      refused: true,
      method: 'GET',
    })
    expect(line('headers.required').lastFailures[0]!.spec).toBe(
      CONFORMANCE_RULES.find((x) => x.id === 'headers.required')!.spec,
    )
    expect(line('schema.request-body')).toMatchObject({ passed: 1, failed: 0 })
    expect(line('token.expiry')).toMatchObject({ passed: 1, failed: 0 })
    expect(report.ok).toBe(false)
    expect(report.rules.map((x) => x.id)).toEqual(CONFORMANCE_RULES.map((x) => x.id))
  })

  it('a refused token: expired (by sandbox time), revoked, or unknown; kept under the client it was issued to', () => {
    let now = 1_000
    const r = new ConformanceRecorder(() => now)
    r.finish(probeFor('c1', 'old', 1_500), request())
    now = 1_600
    const expired = new ConformanceProbe()
    expired.tokenRefused('old')
    r.finish(expired, request({ status: 401, thumbprint: 'other-cert' }))
    r.finish(probeFor('c1', 'live', 9_000), request())
    const revoked = new ConformanceProbe()
    revoked.tokenRefused('live')
    r.finish(revoked, request({ status: 401 }))
    const failures = r
      .report('c1')!
      .rules.find((x) => x.id === 'token.expiry')!
      .lastFailures.map((f) => f.detail)
    expect(failures[0]).toContain('expired at 1970-01-01T00:25:00.000Z (sandbox time), 100 s before this call')
    expect(failures[1]).toContain('revoked')
    // A token never seen valid: kept under the client last seen with that certificate.
    const unknown = new ConformanceProbe()
    unknown.tokenRefused('never')
    r.finish(unknown, request({ status: 401, thumbprint: 'thumb-a' }))
    expect(r.report('c1')!.rules.find((x) => x.id === 'token.expiry')!.failed).toBe(3)
    expect(tokenHash('x')).not.toContain('x')
  })

  it('keys requests no token names by the certificate, and skips those without one', () => {
    const r = new ConformanceRecorder(() => 0)
    const p = new ConformanceProbe()
    p.fail('headers.required', '401: no Authorization header')
    r.finish(p, request({ status: 401, thumbprint: 'fresh-cert' }))
    expect(r.report('cert:fresh-cert')).toMatchObject({ keyedBy: 'certificate', ok: false, requests: 1 })
    r.finish(new ConformanceProbe(), request({ thumbprint: undefined }))
    expect(r.unattributed).toBe(1)
  })

  it('the interaction id: missing, not a UUID, reused on another call (a retry of the same call may reuse it)', () => {
    const r = new ConformanceRecorder(() => 0)
    const id = crypto.randomUUID()
    r.finish(probeFor('c1'), request({ interactionIdSent: undefined }))
    r.finish(probeFor('c1'), request({ interactionIdSent: 'abc' }))
    r.finish(probeFor('c1'), request({ interactionIdSent: id }))
    r.finish(probeFor('c1'), request({ interactionIdSent: id }))
    r.finish(probeFor('c1'), request({ interactionIdSent: id, path: '/open-banking/v4.0/aisp/balances' }))
    const line = r.report('c1')!.rules.find((x) => x.id === 'interaction-id')!
    expect(line).toMatchObject({ passed: 2, failed: 3 })
    expect(line.lastFailures.map((f) => f.detail.slice(0, 40))).toEqual([
      'no x-fapi-interaction-id was sent; the s',
      'x-fapi-interaction-id "abc" is not a UUI',
      `x-fapi-interaction-id ${id} was alrea`.slice(0, 40),
    ])
  })

  it('pagination: read to the end passes; a stop counts as it stands until the list is read on; jumps and pages past the last fail', () => {
    const r = new ConformanceRecorder(() => 0)
    const page = (listing: string, p: number, total: number, status = 200) => {
      const probe = probeFor('c1')
      probe.page({ listing, page: p, totalPages: total })
      r.finish(probe, request({ status }))
    }
    const line = () => r.report('c1')!.rules.find((x) => x.id === 'pagination')!
    page('a', 1, 3)
    expect(line()).toMatchObject({ passed: 0, failed: 1 })
    expect(line().lastFailures[0]!.detail).toContain('stopped after page 1 of 3: Links.Next (page 2) was not followed')
    page('a', 2, 3)
    page('a', 2, 3) // a retry of the same page
    page('a', 3, 3)
    expect(line()).toMatchObject({ passed: 1, failed: 0 })
    page('b', 1, 1)
    expect(line()).toMatchObject({ passed: 2, failed: 0 })
    page('c', 1, 5)
    page('c', 4, 5)
    page('c', 5, 5)
    expect(line()).toMatchObject({ passed: 2, failed: 1 })
    expect(line().lastFailures[0]!.detail).toContain('jumped from page 1 to page 4 of 5, skipping page 3')
    page('d', 2, 2)
    expect(line().lastFailures.at(-1)!.detail).toContain(
      'page 2 of 2 was asked for without reading the pages before it',
    )
    page('e', 7, 2, 400)
    expect(line().lastFailures.at(-1)!.detail).toContain('page 7 is past the last page (2)')
    // Reading page 1 again while a list is unfinished: the first reading stopped for good.
    page('f', 1, 2)
    page('f', 1, 2)
    page('f', 2, 2)
    expect(line()).toMatchObject({ passed: 3, failed: 4 })
    // A refused page (429, say) is not a page read.
    page('g', 1, 2, 429)
    expect(line().failed).toBe(4)
  })

  it('is bounded: failures per rule, listings per client, clients', () => {
    const r = new ConformanceRecorder(() => 0, { clients: 2, failuresPerRule: 3, listingsPerClient: 2 })
    for (let i = 0; i < 5; i++) {
      const p = probeFor('c1')
      p.fail('schema.request-body', `problem ${i}`)
      r.finish(p, request({ status: 400 }))
    }
    const schema = r.report('c1')!.rules.find((x) => x.id === 'schema.request-body')!
    expect(schema.failed).toBe(5)
    expect(schema.lastFailures.map((f) => f.detail)).toEqual(['problem 2', 'problem 3', 'problem 4'])
    for (const listing of ['x', 'y', 'z']) {
      const p = probeFor('c1')
      p.page({ listing, page: 1, totalPages: 2 })
      r.finish(p, request())
    }
    // x was dropped unfinished: a stop for good; y and z count as they stand.
    expect(r.report('c1')!.rules.find((x) => x.id === 'pagination')!.failed).toBe(3)
    r.finish(probeFor('c2'), request())
    r.finish(probeFor('c3'), request())
    expect(r.clients().map((c) => c.clientId)).toEqual(['c3', 'c2'])
    expect(r.evictedClients).toBe(1)
    expect(r.report('c1')).toBeUndefined()
    expect(r.clear('c2')).toBe(1)
    expect(r.clear()).toBe(1)
  })
})
