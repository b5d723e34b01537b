import { describe, expect, it } from 'vitest'
import {
  badgeWords,
  consentExpired,
  expiryWords,
  revocable,
  scaWords,
  statusWords,
} from '../../../../../src-renderer/features/consents/consent-words.ts'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const H = 3_600_000

describe('a consent in words', () => {
  it('says the v4.0 status in words, CANC as Revoked', () => {
    expect(statusWords('AUTH')).toEqual({ words: 'Authorised', tone: 'done' })
    expect(statusWords('CANC').words).toBe('Revoked')
    expect(statusWords('Deleted').words).toMatch(/^Revoked/)
    expect(statusWords(undefined).words).toBe('Not read yet')
    expect(statusWords('ODD').words).toBe('ODD')
  })

  it('counts down to the expiry, says when it passed, and says an open-ended consent is one', () => {
    expect(expiryWords({ expirationDateTime: new Date(NOW + 5 * H + 12 * 60_000).toISOString() }, NOW)).toMatchObject({
      text: expect.stringContaining('(in 5 h 12 min)'),
      expired: false,
    })
    expect(expiryWords({ expirationDateTime: new Date(NOW - 2 * 24 * H).toISOString() }, NOW)).toMatchObject({
      text: expect.stringContaining('(2 d ago)'),
      expired: true,
    })
    expect(expiryWords({}, NOW).text).toContain('valid until revoked')
  })

  it('gives the last SCA and the 90-day window it opened', () => {
    const sca = {
      lastScaAt: new Date(NOW - 3 * H).toISOString(),
      scaWindowEndsAt: new Date(NOW - 3 * H + 90 * 24 * H).toISOString(),
    }
    expect(scaWords(sca, NOW)).toMatch(/Last SCA .* \(3 h ago\); the 90-day window closes .* \(in 89 d 21 h\)/)
    expect(scaWords({ lastScaAt: sca.lastScaAt, scaWindowEndsAt: new Date(NOW - H).toISOString() }, NOW)).toContain(
      'must authenticate again',
    )
    expect(scaWords({}, NOW)).toContain('No SCA recorded')
  })

  it('revokes only account access consents not yet revoked nor expired', () => {
    const later = new Date(NOW + H).toISOString()
    expect(revocable({ kind: 'ais', status: 'AUTH', expirationDateTime: later }, NOW)).toBe(true)
    expect(revocable({ kind: 'ais', status: 'AUTH' }, NOW)).toBe(true)
    expect(revocable({ kind: 'ais', status: 'Deleted' }, NOW)).toBe(false)
    expect(revocable({ kind: 'ais', status: 'CANC' }, NOW)).toBe(false)
    expect(revocable({ kind: 'pis', status: 'AUTH' }, NOW)).toBe(false)
    expect(revocable({ kind: 'ais', status: 'EXPD', expirationDateTime: later }, NOW)).toBe(false)
    // Past its expiry by the environment's clock (the sandbox's, 7 days ahead), though the bank last said AUTH.
    expect(revocable({ kind: 'ais', status: 'AUTH', expirationDateTime: later }, NOW + 7 * 24 * H)).toBe(false)
  })

  it("calls a consent expired by the bank's word or by the clock, and never counts down to a past expiry", () => {
    const later = new Date(NOW + 23 * H + 58 * 60_000).toISOString()
    expect(consentExpired({ status: 'AUTH', expirationDateTime: later }, NOW)).toBe(false)
    expect(consentExpired({ status: 'AUTH' }, NOW)).toBe(false)
    expect(consentExpired({ status: 'EXPD', expirationDateTime: later }, NOW)).toBe(true)
    expect(consentExpired({ status: 'AUTH', expirationDateTime: later }, NOW + 7 * 24 * H)).toBe(true)

    // The bank said EXPD while the date is still ahead: "Expired", no "in 23 h".
    const bankSaid = expiryWords({ status: 'EXPD', expirationDateTime: later }, NOW)
    expect(bankSaid).toEqual({ text: expect.stringMatching(/^Expired: the bank says EXPD/), expired: true })
    expect(bankSaid.text).not.toContain(' in ')
    expect(expiryWords({ status: 'EXPD', expirationDateTime: later }, NOW + 7 * 24 * H)).toEqual({
      text: expect.stringMatching(/^Expired .* \(6 d ago\)$/),
      expired: true,
    })

    expect(badgeWords({ status: 'EXPD', expirationDateTime: later }, NOW)).toEqual({
      words: 'Expired (EXPD)',
      tone: 'failed',
    })
    expect(badgeWords({ status: 'AUTH', expirationDateTime: later }, NOW + 7 * 24 * H)).toEqual({
      words: 'Expired (the bank last said AUTH)',
      tone: 'failed',
    })
    expect(badgeWords({ status: 'AUTH', expirationDateTime: later }, NOW)).toEqual({
      words: 'Authorised (AUTH)',
      tone: 'done',
    })
    expect(badgeWords({ status: 'CANC', expirationDateTime: later }, NOW + 7 * 24 * H).words).toBe('Revoked (CANC)')
    expect(badgeWords({ status: 'Deleted' }, NOW).words).toMatch(/^Revoked \(deleted/)
  })
})
