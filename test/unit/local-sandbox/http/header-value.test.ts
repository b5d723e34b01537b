import { describe, expect, it } from 'vitest'
import {
  bearerChallengeValue,
  headerValue,
  MAX_HEADER_VALUE_CHARS,
  quotedHeaderValue,
} from '../../../../src-main/local-sandbox/http/header-value.ts'

describe('headerValue', () => {
  it('keeps printable ASCII as it is', () => {
    expect(headerValue('GET, POST; q="1" \\ ~')).toBe('GET, POST; q="1" \\ ~')
  })

  it('turns control characters, CR, LF, NUL, tab and DEL into ?', () => {
    expect(headerValue('a\r\nSet-Cookie: x=1')).toBe('a??Set-Cookie: x=1')
    expect(headerValue('\u0000\t\u007f\u001b')).toBe('????')
  })

  it('turns non-ASCII into ?, one per code point (an emoji is one)', () => {
    expect(headerValue('clïent-\u{1F600}')).toBe('cl?ent-?')
  })

  it('cuts long values to the cap, ending with ...', () => {
    const out = headerValue('x'.repeat(5000))
    expect(out).toHaveLength(MAX_HEADER_VALUE_CHARS)
    expect(out.endsWith('...')).toBe(true)
    expect(headerValue('abcdef', 5)).toBe('ab...')
    expect(headerValue('abcde', 5)).toBe('abcde')
  })
})

describe('quotedHeaderValue and bearerChallengeValue', () => {
  it("cannot end the quoted string or escape: quotes and backslashes become '", () => {
    expect(quotedHeaderValue('id", error="forged\\')).toBe("id', error='forged'")
  })

  it('builds an RFC 6750 challenge whose parameters hold no quote, backslash or control character', () => {
    const challenge = bearerChallengeValue('invalid_token', 'no client a"b\\c\r\nd is registered')
    expect(challenge).toBe(`Bearer error="invalid_token", error_description="no client a'b'c??d is registered"`)
    expect(challenge).toMatch(/^Bearer error="[^"\\]*", error_description="[^"\\]*"$/)
  })
})
