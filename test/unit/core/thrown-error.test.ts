import { errors as joseErrors } from 'jose'
import { describe, expect, it } from 'vitest'
import { AppError, toAppError } from '../../../src-main/core/app-error.ts'
import { codedThrown } from '../../../src-main/core/thrown-error.ts'

const systemError = (code: string, message: string) => Object.assign(new Error(message), { code })

describe('codedThrown', () => {
  it("keeps a coded error object's code and sentences, details and problems", () => {
    const e = new AppError('OB_ERROR', {
      what: 'w',
      cause: 'c',
      fix: 'f',
      details: { status: 400 },
      problems: [{ code: 'U002', message: 'm' }],
    })
    expect(codedThrown(e, 'Doing it')).toEqual({
      code: 'OB_ERROR',
      what: 'w',
      cause: 'c',
      fix: 'f',
      details: { status: 400 },
      problems: [{ code: 'U002', message: 'm' }],
    })
  })

  it.each([
    ['ECONNREFUSED', 'CONNECTION_REFUSED'],
    ['ENOTFOUND', 'DNS_NOT_FOUND'],
    ['ECONNRESET', 'CONNECTION_RESET'],
    ['ETIMEDOUT', 'TIMEOUT'],
    ['UND_ERR_HEADERS_TIMEOUT', 'TIMEOUT'],
    ['EHOSTUNREACH', 'NETWORK_ERROR'],
    ['EACCES', 'STORE_ERROR'],
    ['EEXIST', 'STORE_ERROR'],
    ['ENOSPC', 'STORE_ERROR'],
  ])('a system or undici error %s is %s, naming what was done and the message', (code, expected) => {
    const e = codedThrown(systemError(code, `boom ${code}`), 'Reading the accounts failed.')
    expect(e.code).toBe(expected)
    expect(e.what).toBe('Reading the accounts failed.')
    expect(e.cause).toContain(`boom ${code}`)
    expect(e.fix.length).toBeGreaterThan(10)
  })

  it("jose's errors get the code of what they are", () => {
    expect(codedThrown(new joseErrors.JWSSignatureVerificationFailed(), 'w').code).toBe('SIGNATURE_INVALID')
    expect(codedThrown(new joseErrors.JWSInvalid('bad'), 'w').code).toBe('JWT_MALFORMED')
    expect(codedThrown(new joseErrors.JOSENotSupported('alg'), 'w').code).toBe('KEY_UNSUPPORTED')
    expect(codedThrown(new joseErrors.JWKSNoMatchingKey(), 'w').code).toBe('KEY_MISMATCH')
  })

  it('an aborted or timed-out operation is TIMEOUT', () => {
    expect(codedThrown(new DOMException('The operation timed out.', 'TimeoutError'), 'w').code).toBe('TIMEOUT')
  })

  it('anything else is INTERNAL (a bug), as is an object whose code is not of the list', () => {
    expect(codedThrown(new TypeError('x is undefined'), 'w')).toMatchObject({ code: 'INTERNAL', what: 'w' })
    expect(codedThrown('a string', 'w').cause).toContain('a string')
    const unknown = Object.assign(new Error('x'), { code: 'NOT_A_CODE', what: 'w', cause: 'c', fix: 'f' })
    expect(codedThrown(unknown, 'Doing it').code).toBe('INTERNAL')
  })

  it('toAppError uses it, keeping the original as source', () => {
    const source = systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')
    const e = toAppError(source, 'Reading the directory failed')
    expect(e).toBeInstanceOf(AppError)
    expect(e.code).toBe('CONNECTION_REFUSED')
    expect(e.source).toBe(source)
  })
})
