import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALL_PERMISSIONS, startAisHarness, type AisHarness } from './support/ais-harness.ts'

const HOUR = 3_600_000

describe('the per-consent PSU-absent quota profile: four accesses per consent in 24 hours, whatever the endpoint', () => {
  let h: AisHarness
  beforeAll(async () => {
    h = await startAisHarness({ psuAbsentQuota: 'per-consent' })
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('counts every exempt endpoint and account of a consent together; the fifth access is 429 until the oldest leaves the window', async () => {
    const { token } = await h.tppA.authorised(ALL_PERMISSIONS, 'psu-amelia', ['acc-amelia-current', 'acc-amelia-card'])
    const four = [
      '/accounts',
      '/accounts/acc-amelia-current/balances',
      '/accounts/acc-amelia-card/balances',
      '/accounts/acc-amelia-current/transactions',
    ]
    for (const path of four) {
      expect((await h.tppA.call('GET', path, { token, psuPresent: false })).status, path).toBe(200)
      await h.clock.advance(HOUR)
    }
    const fifth = await h.tppA.call('GET', '/accounts/acc-amelia-card', { token, psuPresent: false })
    expect(fifth.status).toBe(429)
    expect(fifth.body.Errors[0].ErrorCode).toBe('U014')
    expect(fifth.body.Errors[0].Message).toContain('quota per consent')
    expect(fifth.headers['retry-after']).toBe(String(20 * 3600))

    // The PSU present is never capped; another consent has its own four.
    expect((await h.tppA.call('GET', '/accounts/acc-amelia-card', { token })).status).toBe(200)
    const other = (await h.tppA.authorised(ALL_PERMISSIONS, 'psu-amelia', ['acc-amelia-current'])).token
    expect((await h.tppA.call('GET', '/accounts', { token: other, psuPresent: false })).status).toBe(200)

    await h.clock.advance(20 * HOUR + 1000)
    expect((await h.tppA.call('GET', '/accounts/acc-amelia-card', { token, psuPresent: false })).status).toBe(200)
  })
})
