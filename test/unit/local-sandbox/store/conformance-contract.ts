import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ConformanceProbe, tokenHash } from '../../../../src-main/local-sandbox/conformance/probe.ts'
import { ConformanceRecorder, type FinishedRequest } from '../../../../src-main/local-sandbox/conformance/recorder.ts'
import { CONFORMANCE_RULES } from '../../../../src-main/local-sandbox/conformance/rules.ts'
import type { ConformanceStore } from '../../../../src-main/local-sandbox/store/conformance-store.ts'
import type { SandboxStore } from '../../../../src-main/local-sandbox/store/sandbox-store.ts'
import type { StoreUnderTest } from './sandbox-store-contract.ts'

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

/**
 * The behaviour every backend's conformance records owe the sandbox (store/conformance-store.ts), through
 * the recorder; where the backend is shared (a database), requests recorded through two stores open at
 * once (two instances) land in one record.
 */
export function conformanceContract(backend: string, open: () => Promise<StoreUnderTest>): void {
  describe(`ConformanceStore contract: ${backend}`, () => {
    let s: StoreUnderTest
    let other: SandboxStore
    const store = (): ConformanceStore => s.store.conformance
    beforeAll(async () => {
      s = await open()
      other = s.shared ? await s.reopen() : s.store
    })
    afterAll(async () => {
      if (other !== s.store) await other?.close()
      await s.store?.close()
    })
    beforeEach(async () => {
      await store().clear()
    })

    it("folds a request's outcomes per rule: one failure (details joined) or one pass", async () => {
      const r = new ConformanceRecorder(store(), () => 1_000)
      const p = probeFor('c1')
      p.pass('headers.required')
      p.fail('headers.required', 'no Accept')
      p.fail('headers.required', 'bad date')
      p.pass('schema.request-body')
      r.finish(p, request({ status: 400 }))
      const report = (await r.report('c1'))!
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

    it('a refused token: expired (by sandbox time), revoked, or unknown; kept under the client it was issued to', async () => {
      let now = 1_000
      const r = new ConformanceRecorder(store(), () => now)
      r.finish(probeFor('c1', 'old', 1_500), request())
      now = 1_600
      const expired = new ConformanceProbe()
      expired.tokenRefused('old')
      r.finish(expired, request({ status: 401, thumbprint: 'other-cert' }))
      r.finish(probeFor('c1', 'live', 9_000), request())
      const revoked = new ConformanceProbe()
      revoked.tokenRefused('live')
      r.finish(revoked, request({ status: 401 }))
      const failures = (await r.report('c1'))!.rules
        .find((x) => x.id === 'token.expiry')!
        .lastFailures.map((f) => f.detail)
      expect(failures[0]).toContain('expired at 1970-01-01T00:25:00.000Z (sandbox time), 100 s before this call')
      expect(failures[1]).toContain('revoked')
      // A token never seen valid: kept under the client last seen with that certificate.
      const unknown = new ConformanceProbe()
      unknown.tokenRefused('never')
      r.finish(unknown, request({ status: 401, thumbprint: 'thumb-a' }))
      expect((await r.report('c1'))!.rules.find((x) => x.id === 'token.expiry')!.failed).toBe(3)
      expect(tokenHash('x')).not.toContain('x')
    })

    it('keys requests no token names by the certificate, and skips those without one', async () => {
      const r = new ConformanceRecorder(store(), () => 0)
      const { unattributed } = await r.counters()
      const p = new ConformanceProbe()
      p.fail('headers.required', '401: no Authorization header')
      r.finish(p, request({ status: 401, thumbprint: 'fresh-cert' }))
      expect(await r.report('cert:fresh-cert')).toMatchObject({ keyedBy: 'certificate', ok: false, requests: 1 })
      r.finish(new ConformanceProbe(), request({ thumbprint: undefined }))
      expect((await r.counters()).unattributed).toBe(unattributed + 1)
    })

    it('the interaction id: missing, not a UUID, reused on another call (a retry of the same call may reuse it)', async () => {
      const r = new ConformanceRecorder(store(), () => 0)
      const id = crypto.randomUUID()
      r.finish(probeFor('c1'), request({ interactionIdSent: undefined }))
      r.finish(probeFor('c1'), request({ interactionIdSent: 'abc' }))
      r.finish(probeFor('c1'), request({ interactionIdSent: id }))
      r.finish(probeFor('c1'), request({ interactionIdSent: id }))
      r.finish(probeFor('c1'), request({ interactionIdSent: id, path: '/open-banking/v4.0/aisp/balances' }))
      const line = (await r.report('c1'))!.rules.find((x) => x.id === 'interaction-id')!
      expect(line).toMatchObject({ passed: 2, failed: 3 })
      expect(line.lastFailures.map((f) => f.detail.slice(0, 40))).toEqual([
        'no x-fapi-interaction-id was sent; the s',
        'x-fapi-interaction-id "abc" is not a UUI',
        `x-fapi-interaction-id ${id} was alrea`.slice(0, 40),
      ])
    })

    it('pagination: read to the end passes; a stop counts as it stands until the list is read on; jumps and pages past the last fail', async () => {
      const r = new ConformanceRecorder(store(), () => 0)
      const page = async (listing: string, p: number, total: number, status = 200) => {
        const probe = probeFor('c1')
        probe.page({ listing, page: p, totalPages: total })
        r.finish(probe, request({ status }))
      }
      const line = async () => (await r.report('c1'))!.rules.find((x) => x.id === 'pagination')!
      await page('a', 1, 3)
      expect(await line()).toMatchObject({ passed: 0, failed: 1 })
      expect((await line()).lastFailures[0]!.detail).toContain(
        'stopped after page 1 of 3: Links.Next (page 2) was not followed',
      )
      await page('a', 2, 3)
      await page('a', 2, 3) // a retry of the same page
      await page('a', 3, 3)
      expect(await line()).toMatchObject({ passed: 1, failed: 0 })
      await page('b', 1, 1)
      expect(await line()).toMatchObject({ passed: 2, failed: 0 })
      await page('c', 1, 5)
      await page('c', 4, 5)
      await page('c', 5, 5)
      expect(await line()).toMatchObject({ passed: 2, failed: 1 })
      expect((await line()).lastFailures[0]!.detail).toContain('jumped from page 1 to page 4 of 5, skipping page 3')
      await page('d', 2, 2)
      expect((await line()).lastFailures.at(-1)!.detail).toContain(
        'page 2 of 2 was asked for without reading the pages before it',
      )
      await page('e', 7, 2, 400)
      expect((await line()).lastFailures.at(-1)!.detail).toContain('page 7 is past the last page (2)')
      // Reading page 1 again while a list is unfinished: the first reading stopped for good.
      await page('f', 1, 2)
      await page('f', 1, 2)
      await page('f', 2, 2)
      expect(await line()).toMatchObject({ passed: 3, failed: 4 })
      // A refused page (429, say) is not a page read.
      await page('g', 1, 2, 429)
      expect((await line()).failed).toBe(4)
    })

    it('is bounded: failures per rule, listings per client, clients', async () => {
      const r = new ConformanceRecorder(store(), () => 0, { clients: 2, failuresPerRule: 3, listingsPerClient: 2 })
      const { evictedClients: evicted } = await r.counters()
      for (let i = 0; i < 5; i++) {
        const p = probeFor('c1')
        p.fail('schema.request-body', `problem ${i}`)
        r.finish(p, request({ status: 400 }))
      }
      const schema = (await r.report('c1'))!.rules.find((x) => x.id === 'schema.request-body')!
      expect(schema.failed).toBe(5)
      expect(schema.lastFailures.map((f) => f.detail)).toEqual(['problem 2', 'problem 3', 'problem 4'])
      for (const listing of ['x', 'y', 'z']) {
        const p = probeFor('c1')
        p.page({ listing, page: 1, totalPages: 2 })
        r.finish(p, request())
      }
      // x was dropped unfinished: a stop for good; y and z count as they stand.
      expect((await r.report('c1'))!.rules.find((x) => x.id === 'pagination')!.failed).toBe(3)
      r.finish(probeFor('c2'), request())
      r.finish(probeFor('c3'), request())
      expect((await r.clients()).map((c) => c.clientId)).toEqual(['c3', 'c2'])
      expect((await r.counters()).evictedClients).toBe(evicted + 1)
      expect(await r.report('c1')).toBeUndefined()
      expect(await r.clear('c2')).toBe(1)
      expect(await r.clear()).toBe(1)
    })

    it('records behind the answer, in batches: a token used on every request is remembered once', async () => {
      const conformance = store()
      let remembered = 0
      const counting = new Proxy(conformance, {
        get(target, key) {
          if (key === 'rememberToken') remembered++
          const value = Reflect.get(target, key) as unknown
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
      const r = new ConformanceRecorder(counting, () => 0)
      for (let i = 0; i < 5; i++) r.finish(probeFor('batched'), request())
      expect(remembered).toBe(0) // nothing recorded while the answers go out
      expect((await r.report('batched'))!.requests).toBe(5)
      for (let i = 0; i < 5; i++) {
        r.finish(probeFor('batched'), request())
        await r.settled() // five batches of one
      }
      expect((await r.report('batched'))!.requests).toBe(10)
      expect(remembered).toBe(1)
    })

    it('requests to two instances at once land in one record, every one counted', async () => {
      const here = new ConformanceRecorder(store(), () => 0)
      const there = new ConformanceRecorder(other.conformance, () => 0)
      for (let i = 0; i < 20; i++) (i % 2 ? there : here).finish(probeFor('both'), request())
      // Recorded behind the answers: a read on one instance waits for its own queue; the other's is settled here.
      await here.settled()
      const report = (await there.report('both'))!
      expect(report.requests).toBe(20)
      expect(report.rules.find((x) => x.id === 'interaction-id')).toMatchObject({ passed: 20, failed: 0 })
      expect((await here.clients()).map((c) => c.clientId)).toEqual(['both'])
      // A token seen valid through one instance names the client of a refusal seen through the other.
      const refused = new ConformanceProbe()
      refused.tokenRefused('tok-both')
      here.finish(refused, request({ status: 401, thumbprint: 'unknown-cert' }))
      await here.settled()
      const expiry = (await there.report('both'))!.rules.find((x) => x.id === 'token.expiry')!
      expect(expiry.failed).toBe(1)
    })
  })
}
