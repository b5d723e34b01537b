import { describe, expect, it } from 'vitest'
import { isAppError, type AppError } from '../../../../src-main/core/app-error.ts'
import { parseRedirect } from '../../../../src-main/flows/capture/redirect-params.ts'
import { checkReturn, readReturn, responseModeOf } from '../../../../src-main/flows/capture/return-errors.ts'

const EXPECTED = { state: 'st-1', responseMode: 'fragment' }

function thrown(fn: () => unknown): AppError {
  try {
    fn()
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('expected an AppError')
}

const pasted = (url: string) => parseRedirect(url, 'pasted')

describe("the PSU's return: each problem its own coded error and way on", () => {
  it('takes a whole hybrid return in the fragment', () => {
    expect(() =>
      checkReturn(pasted('https://tpp/cb#code=c1&id_token=a.b.c&state=st-1'), EXPECTED, { repaste: true }),
    ).not.toThrow()
  })

  it('error=access_denied with its description: a new consent, never the same one again', () => {
    const e = thrown(() =>
      checkReturn(pasted('https://tpp/cb#error=access_denied&error_description=PSU%20cancelled&state=st-1'), EXPECTED, {
        repaste: true,
      }),
    )
    expect(e.code).toBe('AUTH_RETURN_ERROR')
    expect(e.what).toContain('PSU cancelled')
    expect(e.cause).toContain('refused')
    expect(e.fix).toMatch(/new consent/)
    expect(e.details).toMatchObject({ wayOn: 'new-consent', error: 'access_denied' })
  })

  it('another bank error (server_error): authorise the same consent again', () => {
    const e = thrown(() =>
      checkReturn(pasted('https://tpp/cb?error=server_error&state=st-1'), EXPECTED, { repaste: false }),
    )
    expect(e.code).toBe('AUTH_RETURN_ERROR')
    expect(e.details?.wayOn).toBe('authorise-again')
  })

  it('a wrong state: paste again when pasted, authorise again when it came by itself', () => {
    const bad = pasted('https://tpp/cb#code=c1&id_token=a.b.c&state=someone-else')
    const p = thrown(() => checkReturn(bad, EXPECTED, { repaste: true }))
    expect(p.code).toBe('AUTH_RETURN_STATE_MISMATCH')
    expect(p.cause).toContain('someone-else')
    expect(p.details?.wayOn).toBe('paste-again')
    expect(thrown(() => checkReturn(bad, EXPECTED, { repaste: false })).details?.wayOn).toBe('authorise-again')
    const none = thrown(() => checkReturn(pasted('https://tpp/cb#code=c1&id_token=a.b.c'), EXPECTED, { repaste: true }))
    expect(none.what).toContain('no state')
  })

  it('a wrong state that another waiting flow expects: names that flow', () => {
    const e = thrown(() =>
      checkReturn(pasted('https://tpp/cb#code=c1&state=st-2'), EXPECTED, {
        repaste: true,
        waitingFlowFor: (s) => (s === 'st-2' ? 'flow-b' : undefined),
      }),
    )
    expect(e.code).toBe('AUTH_RETURN_OTHER_FLOW')
    expect(e.details).toMatchObject({ wayOn: 'other-flow', otherFlowId: 'flow-b' })
    expect(e.fix).toContain('flow-b')
  })

  it('the code in the query when the request asked for the fragment', () => {
    const e = thrown(() =>
      checkReturn(pasted('https://tpp/cb?code=c1&state=st-1#id_token=a.b.c'), EXPECTED, { repaste: true }),
    )
    expect(e.code).toBe('AUTH_RETURN_CODE_IN_QUERY')
    expect(e.details?.wayOn).toBe('paste-again')
    // A request that asked for the query takes it there.
    expect(() =>
      checkReturn(
        pasted('https://tpp/cb?code=c1&state=st-1'),
        { state: 'st-1', responseMode: 'query' },
        { repaste: true },
      ),
    ).not.toThrow()
  })

  it('the right state but no code (cut on the way)', () => {
    const e = thrown(() => checkReturn(pasted('https://tpp/cb#id_token=a.b.c&state=st-1'), EXPECTED, { repaste: true }))
    expect(e.code).toBe('AUTH_RETURN_NO_CODE')
    expect(e.cause).toContain('id_token, state')
  })

  it('reads a pasted text: not a URL, and a URL whose fragment was lost, are coded errors', () => {
    const notUrl = thrown(() => readReturn('code=abc', 'pasted', true))
    expect(notUrl.code).toBe('AUTH_RETURN_NOT_A_URL')
    expect(notUrl.details?.wayOn).toBe('paste-again')
    const lost = thrown(() => readReturn('https://tpp/cb', 'pasted', true))
    expect(lost.code).toBe('AUTH_RETURN_NO_CODE')
    expect(lost.fix).toMatch(/fragment/)
    expect(readReturn('https://tpp/cb#code=c&state=s', 'pasted', true)).toMatchObject({ code: 'c', codeIn: 'fragment' })
  })

  it('the response mode a request asks for: its response_mode, else the fragment', () => {
    expect(responseModeOf('https://bank/auth?response_type=code%20id_token')).toBe('fragment')
    expect(responseModeOf('https://bank/auth?response_mode=query')).toBe('query')
    expect(responseModeOf(undefined)).toBe('fragment')
    expect(responseModeOf('not a url')).toBe('fragment')
  })
})
