import { describe, expect, it } from 'vitest'
import { AppError, isAppError, toAppError } from '../../../src-main/core/app-error.ts'

describe('AppError', () => {
  it('carries a code and three sentences, and a message made of them', () => {
    const err = new AppError('PASSPHRASE_WRONG', {
      what: 'Opening client.p12 failed',
      cause: 'the passphrase is wrong',
      fix: 'enter the export passphrase',
      details: { file: 'client.p12' },
    })
    expect(err.code).toBe('PASSPHRASE_WRONG')
    expect(err.cause).toBe('the passphrase is wrong')
    expect(err.message).toBe('Opening client.p12 failed: the passphrase is wrong. Fix: enter the export passphrase')
    expect(err).toBeInstanceOf(Error)
    expect(isAppError(err)).toBe(true)
  })

  it('serialises without the source error or stack', () => {
    const source = new Error('bad decrypt')
    const data = new AppError('PASSPHRASE_WRONG', { what: 'w', cause: 'c', fix: 'f', source }).toData()
    expect(data).toEqual({ code: 'PASSPHRASE_WRONG', what: 'w', cause: 'c', fix: 'f' })
    expect(JSON.stringify(data)).not.toContain('bad decrypt')
  })

  it('wraps unknown throws as INTERNAL naming what was being done, and passes AppErrors through', () => {
    const wrapped = toAppError(new TypeError('x is undefined'), 'Inspecting the certificate failed')
    expect(wrapped.code).toBe('INTERNAL')
    expect(wrapped.what).toBe('Inspecting the certificate failed')
    expect(wrapped.cause).toContain('x is undefined')
    expect(wrapped.source).toBeInstanceOf(TypeError)
    const original = new AppError('NOT_FOUND', { what: 'w', cause: 'c', fix: 'f' })
    expect(toAppError(original)).toBe(original)
    expect(toAppError('a string').code).toBe('INTERNAL')
  })
})
