import { describe, expect, it } from 'vitest'
import {
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

  it('revokes only account access consents not yet revoked', () => {
    expect(revocable({ kind: 'ais', status: 'AUTH' })).toBe(true)
    expect(revocable({ kind: 'ais', status: 'Deleted' })).toBe(false)
    expect(revocable({ kind: 'ais', status: 'CANC' })).toBe(false)
    expect(revocable({ kind: 'pis', status: 'AUTH' })).toBe(false)
  })
})
