import { describe, expect, it } from 'vitest'
import { decodeFramed, encodeFramed, FramedAnswerError } from '../../../src-main/contract/framed-answer.ts'

/** The framed answer as one byte array, with its head's length, as the web host sends it. */
function wire(parts: Uint8Array[]): { bytes: Uint8Array; head: number } {
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    bytes.set(p, at)
    at += p.byteLength
  }
  return { bytes, head: parts[0]!.byteLength }
}

const roundTrip = (value: unknown, min: number) => {
  const parts = encodeFramed(value, { min })
  if (!parts) throw new Error('not framed')
  const { bytes, head } = wire(parts)
  return decodeFramed(bytes, head)
}

describe('framed answers', () => {
  it('leaves an answer without a large string to plain JSON', () => {
    expect(encodeFramed({ ok: true, value: { text: 'short', list: ['a', 'b'] } }, { min: 10 })).toBeUndefined()
    expect(encodeFramed('a string alone is never framed, however long', { min: 10 })).toBeUndefined()
    expect(encodeFramed(null, { min: 10 })).toBeUndefined()
  })

  it('sends each large string as its own UTF-8 bytes, not inside the JSON, and reads the value back equal', () => {
    const body = '{"Data":{"Transaction":[{"Amount":"£12.00","Info":"café \\"quoted\\" ✓"}]}}'.repeat(3)
    const value = {
      ok: true,
      value: {
        id: 'x-1',
        request: { headers: [['a', 'b']], body: { text: 'small', encoding: 'utf8' } },
        response: { status: 200, body: { text: body, encoding: 'utf8', size: body.length } },
        jwts: [{ compact: 'e'.repeat(40), claims: { nested: ['z'.repeat(50), 1, null] } }],
        when: new Date(0),
        gone: undefined,
      },
    }
    const parts = encodeFramed(value, { min: 40 })!
    // The head, then the body's bytes, the JWT's, the claim's, in document order.
    expect(parts).toHaveLength(4)
    const head = new TextDecoder().decode(parts[0])
    expect(head).not.toContain('café')
    expect(JSON.parse(head).strings).toEqual([
      { path: ['value', 'response', 'body', 'text'], bytes: new TextEncoder().encode(body).byteLength },
      { path: ['value', 'jwts', 0, 'compact'], bytes: 40 },
      { path: ['value', 'jwts', 0, 'claims', 'nested', 0], bytes: 50 },
    ])
    expect(new TextDecoder().decode(parts[1])).toBe(body)
    expect(roundTrip(value, 40)).toEqual(JSON.parse(JSON.stringify(value)))
  })

  it('frames a string a toJSON method returns, as JSON.stringify writes it', () => {
    const value = { a: { toJSON: () => 'y'.repeat(30) } }
    expect(roundTrip(value, 20)).toEqual({ a: 'y'.repeat(30) })
  })

  it('sends the bytes utf8Of gives for a property without reading it, and reads a small one as usual', () => {
    const kept = new TextEncoder().encode('{"Data":"kept bytes, as received ✓"}')
    const lazy = (bytes: Uint8Array) => {
      const body = { size: bytes.byteLength }
      Object.defineProperty(body, 'text', {
        enumerable: true,
        get: () => {
          throw new Error('read')
        },
      })
      return body
    }
    const small = { size: 2, text: 'ok' }
    const given = new Map<object, Uint8Array>()
    const big = lazy(kept)
    given.set(big, kept)
    given.set(small, new TextEncoder().encode('ok'))
    const utf8Of = (holder: object, key: string) => (key === 'text' ? given.get(holder) : undefined)
    const parts = encodeFramed(
      { ok: true, value: { response: { body: big }, request: { body: small } } },
      { min: 20, utf8Of },
    )!
    expect(parts[1]).toBe(kept)
    const { bytes, head } = wire(parts)
    expect(decodeFramed(bytes, head)).toEqual({
      ok: true,
      value: {
        response: { body: { size: kept.byteLength, text: '{"Data":"kept bytes, as received ✓"}' } },
        request: { body: small },
      },
    })
  })

  it('refuses an answer whose lengths or places do not fit, naming what is wrong', () => {
    const { bytes, head } = wire(encodeFramed({ ok: true, value: 'v'.repeat(30) }, { min: 20 })!)
    // A result that is itself a large string (an export's text) goes beside the JSON too.
    expect(decodeFramed(bytes, head)).toEqual({ ok: true, value: 'v'.repeat(30) })
    const refused = (b: Uint8Array, h: number) => {
      try {
        decodeFramed(b, h)
      } catch (err) {
        expect(err).toBeInstanceOf(FramedAnswerError)
        return (err as Error).message
      }
      throw new Error('accepted')
    }
    expect(refused(bytes, Number.NaN)).toMatch(/head's length \(NaN\) does not fit/)
    expect(refused(bytes, bytes.byteLength + 1)).toMatch(/does not fit/)
    expect(refused(bytes.subarray(0, bytes.byteLength - 1), head)).toMatch(/lists \d+ bytes in all, the answer has \d+/)
    expect(refused(bytes, head - 1)).toMatch(/the head is not JSON/)
    const forged = (headJson: unknown, tail: string) => {
      const h = new TextEncoder().encode(JSON.stringify(headJson))
      return refused(wire([h, new TextEncoder().encode(tail)]).bytes, h.byteLength)
    }
    expect(forged({ value: {}, strings: [{ path: ['a'], bytes: 1 }] }, 'x')).toMatch(/nothing at \["a"\]/)
    expect(forged({ value: { a: 'kept' }, strings: [{ path: ['a'], bytes: 1 }] }, 'x')).toMatch(
      /not a string left empty/,
    )
    expect(forged({ value: {}, strings: [{ path: [], bytes: 1 }] }, 'x')).toMatch(/at the top/)
    // Only own properties are written: a path through the prototype is refused, nothing is polluted.
    expect(forged({ value: { a: {} }, strings: [{ path: ['a', '__proto__', 'polluted'], bytes: 1 }] }, 'x')).toMatch(
      /nothing at \["a","__proto__"\]/,
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(forged({ value: {}, strings: [{ path: ['a'], bytes: -1 }] }, '')).toMatch(/the head is not/)
    expect(forged({ value: {} }, '')).toMatch(/the head is not/)
  })
})
