import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PsuAbsentLimiter } from '../../../../src-main/local-sandbox/ais/access/psu-absent-limiter.ts'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { ALL_PERMISSIONS, startAisHarness, type AisHarness } from './support/ais-harness.ts'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'

const embeddedStoreOf = (dataDir: string) => {
  const layout = dataDirLayout(dataDir)
  return new EmbeddedStore({ state: layout.state, auth: layout.auth })
}

const HOUR = 3_600_000

describe('AIS without the PSU present: four endpoints, four times in 24 hours', () => {
  let h: AisHarness
  beforeAll(async () => {
    h = await startAisHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('allows only the four exempt endpoints without x-fapi-customer-ip-address', async () => {
    const { token } = await h.tppA.authorised(ALL_PERMISSIONS, 'psu-amelia', ['acc-amelia-current', 'acc-amelia-card'])
    for (const path of [
      '/accounts',
      '/accounts/acc-amelia-current',
      '/accounts/acc-amelia-current/balances',
      '/accounts/acc-amelia-current/transactions',
    ]) {
      expect((await h.tppA.call('GET', path, { token, psuPresent: false })).status, path).toBe(200)
    }
    for (const path of [
      '/balances',
      '/transactions',
      '/accounts/acc-amelia-current/standing-orders',
      '/accounts/acc-amelia-current/direct-debits',
      '/party',
      '/accounts/acc-amelia-card/statements',
      '/products',
    ]) {
      const res = await h.tppA.call('GET', path, { token, psuPresent: false })
      expect(res.status, path).toBe(403)
      expect(res.body.Errors[0]).toMatchObject({ ErrorCode: 'U007', Path: 'x-fapi-customer-ip-address' })
      expect(res.body.Errors[0].Message, path).toContain('PSU to be present')
    }
  })

  it('answers the fifth PSU-absent call in 24 hours with 429 and Retry-After, and allows it again once the oldest call leaves the window', async () => {
    const { consentId, token } = await h.tppA.authorised(ALL_PERMISSIONS, 'psu-rahul', ['acc-rahul-current'])
    const balances = '/accounts/acc-rahul-current/balances'
    for (let i = 0; i < 4; i++) {
      expect((await h.tppA.call('GET', balances, { token, psuPresent: false })).status, `call ${i + 1}`).toBe(200)
      await h.clock.advance(HOUR)
    }
    const fifth = await h.tppA.call('GET', balances, { token, psuPresent: false })
    expect(fifth.status).toBe(429)
    expect(fifth.headers['retry-after']).toBe(String(20 * 3600))
    expect(fifth.headers['content-type']).toMatch(/^application\/json/)
    expect(fifth.body.Errors[0].ErrorCode).toBe('U014')
    expect(fifth.body.Errors[0].Message).toContain('retry after 72000 seconds')

    // The counters are per consent, account and endpoint: the PSU-present path and other endpoints are unaffected.
    expect((await h.tppA.call('GET', balances, { token })).status).toBe(200)
    expect((await h.tppA.call('GET', '/accounts/acc-rahul-current', { token, psuPresent: false })).status).toBe(200)
    expect((await h.tppA.call('GET', '/accounts', { token, psuPresent: false })).status).toBe(200)
    const other = (await h.tppA.authorised(ALL_PERMISSIONS, 'psu-rahul', ['acc-rahul-current'])).token
    expect((await h.tppA.call('GET', balances, { token: other, psuPresent: false })).status).toBe(200)

    // A limiter reading the same state directory sees the same counts (they survive a restart).
    const reloaded = new PsuAbsentLimiter(embeddedStoreOf(h.dataDir), h.clock)
    expect(await reloaded.used(`${consentId}|acc-rahul-current|balances`)).toBe(4)

    await h.clock.advance(20 * HOUR - 1000)
    const stillBlocked = await h.tppA.call('GET', balances, { token, psuPresent: false })
    expect(stillBlocked.status).toBe(429)
    expect(Number(stillBlocked.headers['retry-after'])).toBeLessThanOrEqual(1)
    await h.clock.advance(2000)
    expect((await h.tppA.call('GET', balances, { token, psuPresent: false })).status).toBe(200)
    // One slot freed (the oldest call left the window); the next is refused again with the next oldest's wait.
    const again = await h.tppA.call('GET', balances, { token, psuPresent: false })
    expect(again.status).toBe(429)
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(3500)
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(3600)
  })

  it('counts a paginated read once: later pages follow the counted first page', async () => {
    const { token } = await h.tppA.authorised(ALL_PERMISSIONS, 'psu-amelia', ['acc-amelia-current'])
    await h.clock.advance(10 * 60_000)
    const path = '/accounts/acc-amelia-current/transactions'
    const first = await h.tppA.call('GET', path, { token, psuPresent: false })
    expect(first.body.Meta.TotalPages).toBeGreaterThan(1)
    let next = first.body.Links.Next
    while (next) {
      const page = await h.tppA.call('GET', next, { token, psuPresent: false })
      expect(page.status).toBe(200)
      next = page.body.Links.Next
    }
    for (let i = 0; i < 3; i++) expect((await h.tppA.call('GET', path, { token, psuPresent: false })).status).toBe(200)
    expect((await h.tppA.call('GET', path, { token, psuPresent: false })).status).toBe(429)
  })

  it('counts GET /accounts per consent', async () => {
    const { token } = await h.tppA.authorised(['ReadAccountsBasic'], 'psu-grace', [
      'acc-grace-card',
      'acc-grace-current',
    ])
    for (let i = 0; i < 4; i++)
      expect((await h.tppA.call('GET', '/accounts', { token, psuPresent: false })).status).toBe(200)
    const res = await h.tppA.call('GET', '/accounts', { token, psuPresent: false })
    expect(res.status).toBe(429)
    expect(res.body.Errors[0].Message).toContain('GET /accounts')
    expect((await h.tppA.call('GET', '/accounts/acc-grace-card', { token, psuPresent: false })).status).toBe(200)
  })

  it('does not count a refused call (bad query, unknown account) and never caps the PSU-present path', async () => {
    const { token } = await h.tppA.authorised(ALL_PERMISSIONS, 'psu-grace', ['acc-grace-card'])
    for (let i = 0; i < 6; i++) {
      expect(
        (
          await h.tppA.call('GET', '/accounts/acc-grace-card/transactions?fromBookingDateTime=nope', {
            token,
            psuPresent: false,
          })
        ).status,
      ).toBe(400)
    }
    for (let i = 0; i < 4; i++)
      expect(
        (await h.tppA.call('GET', '/accounts/acc-grace-card/transactions', { token, psuPresent: false })).status,
      ).toBe(200)
    for (let i = 0; i < 10; i++)
      expect((await h.tppA.call('GET', '/accounts/acc-grace-card/transactions', { token })).status).toBe(200)
    const badIp = await h.tppA.call('GET', '/accounts/acc-grace-card/transactions', {
      token,
      headers: { 'x-fapi-customer-ip-address': '999.1.1.1' },
    })
    expect(badIp.status).toBe(400)
    expect(badIp.body.Errors[0]).toMatchObject({ ErrorCode: 'U006', Path: 'x-fapi-customer-ip-address' })
    const v6 = await h.tppA.call('GET', '/accounts/acc-grace-card/transactions', {
      token,
      headers: { 'x-fapi-customer-ip-address': '2001:db8::1' },
    })
    expect(v6.status).toBe(200)
  })
})
