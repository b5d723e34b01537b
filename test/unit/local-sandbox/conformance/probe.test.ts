import { describe, expect, it } from 'vitest'
import {
  ConformanceProbe,
  checked,
  checkedAsync,
  conformance,
} from '../../../../src-main/local-sandbox/conformance/probe.ts'
import { ObApiError, UnauthorisedError } from '../../../../src-main/local-sandbox/http/ob-error.ts'

describe('the request probe', () => {
  it("checked(): a pass when the check returns, the refusal's words when it throws one; other errors unrecorded", async () => {
    const probe = new ConformanceProbe()
    const ctx = { state: { conformance: probe } }
    expect(checked(ctx, 'idempotency.key', () => 'k')).toBe('k')
    const missing = new ObApiError(400, { code: 'U007', path: 'x-idempotency-key', message: 'missing' })
    expect(() =>
      checked(ctx, 'idempotency.key', () => {
        throw missing
      }),
    ).toThrow(ObApiError)
    await expect(
      checkedAsync(ctx, 'headers.required', async () => {
        throw new UnauthorisedError('no Authorization header')
      }),
    ).rejects.toThrow()
    expect(() =>
      checked(ctx, 'schema.request-body', () => {
        throw new TypeError('bug')
      }),
    ).toThrow(TypeError)
    expect(probe.events).toEqual([
      { rule: 'idempotency.key', ok: true },
      { rule: 'idempotency.key', ok: false, detail: 'U007 (x-idempotency-key): missing' },
      { rule: 'headers.required', ok: false, detail: '401: no Authorization header' },
    ])
  })

  it('without a conformance middleware the probe does nothing', () => {
    const ctx = { state: {} }
    checked(ctx, 'pagination', () => 1)
    conformance(ctx).page({ listing: 'x', page: 1, totalPages: 1 })
    expect(conformance(ctx).events).toEqual([])
    expect(conformance(ctx).pages).toEqual([])
  })
})
