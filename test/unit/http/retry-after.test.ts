import { describe, expect, it } from 'vitest'
import { describeRetryAfter, parseRetryAfter } from '../../../src-main/http/retry-after.ts'

const now = new Date('2026-11-25T10:00:00Z')

describe('parseRetryAfter', () => {
  it('reads a number of seconds', () => {
    expect(parseRetryAfter('120', now)).toEqual({ seconds: 120, at: new Date('2026-11-25T10:02:00Z'), form: 'seconds' })
    expect(parseRetryAfter(' 0 ', now)?.seconds).toBe(0)
  })

  it('reads an HTTP date (IMF-fixdate, RFC 850, asctime)', () => {
    expect(parseRetryAfter('Wed, 25 Nov 2026 10:00:30 GMT', now)).toEqual({
      seconds: 30,
      at: new Date('2026-11-25T10:00:30Z'),
      form: 'date',
    })
    expect(parseRetryAfter('Wednesday, 25-Nov-26 10:01:00 GMT', now)?.seconds).toBe(60)
    expect(parseRetryAfter('Wed Nov 25 10:00:05 2026', now)?.form).toBe('date')
  })

  it('gives 0 seconds for a date already past', () => {
    expect(parseRetryAfter('Wed, 25 Nov 2026 09:00:00 GMT', now)?.seconds).toBe(0)
  })

  it('refuses what is neither form', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter('', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('1.5', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
  })
})

describe('describeRetryAfter', () => {
  it('says seconds as seconds and a date as a moment, never "GMT s"', () => {
    expect(describeRetryAfter('120', now)).toBe('120 s')
    const date = describeRetryAfter('Wed, 25 Nov 2026 10:00:30 GMT', now)
    expect(date).toBe('until 10:00:30 UTC on 2026-11-25 (30 s)')
    expect(date).not.toMatch(/GMT s/)
    expect(describeRetryAfter('soon', now)).toBe('"soon" (not a number of seconds nor an HTTP date)')
    expect(describeRetryAfter(undefined, now)).toBeUndefined()
  })
})
