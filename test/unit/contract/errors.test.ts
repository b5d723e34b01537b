import { describe, expect, it } from 'vitest'
import { ERROR_CODES, isErrorCode, type AppErrorDto, type Result } from '../../../src-main/contract/errors.ts'
import { APP_ERROR_CODES, AppError, type AppErrorData } from '../../../src-main/core/app-error.ts'
import type { Result as CoreResult } from '../../../src-main/core/result.ts'

describe('contract error codes', () => {
  it('are exactly the codes core/app-error.ts defines, in the same order', () => {
    expect([...ERROR_CODES]).toEqual([...APP_ERROR_CODES])
  })

  it('has no duplicates', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length)
  })

  it('recognises known codes only', () => {
    expect(isErrorCode('TLS_CLIENT_CERT_REFUSED')).toBe(true)
    expect(isErrorCode('tls_client_cert_refused')).toBe(false)
    expect(isErrorCode(42)).toBe(false)
  })

  it('accepts core error data and results as contract DTOs (type-level: this file must compile)', () => {
    const data: AppErrorData = new AppError('NOT_FOUND', { what: 'w', cause: 'c', fix: 'f' }).toData()
    const dto: AppErrorDto = data
    const back: AppErrorData = dto
    const coreResult: CoreResult<number> = { ok: false, error: data }
    const contractResult: Result<number> = coreResult
    expect(back.code).toBe('NOT_FOUND')
    expect(contractResult.ok).toBe(false)
  })
})
