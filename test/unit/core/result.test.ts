import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src-main/core/app-error.ts'
import { attempt, fail, ok } from '../../../src-main/core/result.ts'

describe('result', () => {
  it('wraps values and errors', () => {
    expect(ok(3)).toEqual({ ok: true, value: 3 })
    const r = fail(new AppError('NOT_FOUND', { what: 'w', cause: 'c', fix: 'f' }))
    expect(r).toEqual({ ok: false, error: { code: 'NOT_FOUND', what: 'w', cause: 'c', fix: 'f' } })
  })

  it('attempt turns throws into failed results and keeps AppError codes', async () => {
    expect(await attempt(() => 5)).toEqual({ ok: true, value: 5 })
    expect(await attempt(async () => 6)).toEqual({ ok: true, value: 6 })
    const notFound = await attempt(() => {
      throw new AppError('NOT_FOUND', { what: 'w', cause: 'c', fix: 'f' })
    })
    expect(notFound.ok === false && notFound.error.code).toBe('NOT_FOUND')
    const internal = await attempt(() => {
      throw new Error('boom')
    }, 'Doing x failed')
    expect(internal.ok === false && internal.error).toMatchObject({ code: 'INTERNAL', what: 'Doing x failed' })
  })
})
