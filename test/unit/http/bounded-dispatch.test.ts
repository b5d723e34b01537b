import { describe, expect, it } from 'vitest'
import { BodyTooLarge, checkMaxBody, tooLargeError } from '../../../src-main/http/bounded-dispatch.ts'

describe('bounded-dispatch', () => {
  it('takes a cap of at least 1 KiB in whole bytes and names the setting otherwise', () => {
    expect(checkMaxBody(1024, 'x')).toBe(1024)
    for (const bad of [1023, 1024.5, Number.NaN]) {
      expect(() => checkMaxBody(bad, 'the test')).toThrow(/maxResponseBodyMiB|--max-body-mib/)
    }
  })

  it('reports a body over the cap with its Content-Length, or what was read without one', () => {
    const raw = { status: 200, statusText: 'OK', headers: {}, body: Buffer.alloc(10) }
    const declared = tooLargeError(
      { method: 'GET', url: 'https://bank/x' },
      new BodyTooLarge(raw, 2048, 4096, 1024 * 1024 * 3),
    )
    expect(declared.code).toBe('RESPONSE_TOO_LARGE')
    expect(declared.what).toContain('3 MiB')
    expect(declared.what).toContain('its Content-Length')
    const streamed = tooLargeError(
      { method: 'GET', url: 'https://bank/x' },
      new BodyTooLarge(raw, 2048, 4096, undefined),
    )
    expect(streamed.what).toContain('no Content-Length; 4 KiB (4096 bytes) read before stopping')
    expect(streamed.details).toMatchObject({ capBytes: 2048, receivedBytes: 4096, previewBytes: 10 })
  })
})
