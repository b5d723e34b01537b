import { describe, expect, it } from 'vitest'
import { ERROR_CODES, isErrorCode, type AppErrorDto, type Result } from '../../../src-main/contract/errors.ts'
import { AppError } from '../../../src-main/core/app-error.ts'
import { fail } from '../../../src-main/core/result.ts'

describe('contract error codes', () => {
  it('has no duplicates', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length)
  })

  it('are all UPPER_SNAKE_CASE', () => {
    const notUpperSnake = ERROR_CODES.filter((code) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(code))
    expect(notUpperSnake).toEqual([])
  })

  it('recognises known codes only', () => {
    expect(isErrorCode('TLS_CLIENT_CERT_REFUSED')).toBe(true)
    expect(isErrorCode('tls_client_cert_refused')).toBe(false)
    expect(isErrorCode(42)).toBe(false)
  })

  it('is the list core throws with: an AppError becomes a contract error DTO with the same code and sentences', () => {
    const dto: AppErrorDto = new AppError('NOT_FOUND', {
      what: 'w',
      cause: 'c',
      fix: 'f',
      details: { id: 'x' },
    }).toData()
    expect(dto).toEqual({ code: 'NOT_FOUND', what: 'w', cause: 'c', fix: 'f', details: { id: 'x' } })
    expect(isErrorCode(dto.code)).toBe(true)
    const result: Result<number> = fail(new Error('boom'), 'Doing x failed')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('INTERNAL')
  })
})
