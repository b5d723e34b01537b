import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src-main/core/app-error.ts'
import { fixedClock } from '../../../src-main/core/clock.ts'
import { silentLogger } from '../../../src-main/core/logger.ts'
import { makeResponse, type HttpRequest, type HttpResponse } from '../../../src-main/http/http-message.ts'
import { isRetryable, sendWithRetries } from '../../../src-main/http/request-retries.ts'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../../src-main/http/retry-policy.ts'

const now = new Date('2026-01-01T12:00:00Z')
const slept: number[] = []
const policy: RetryPolicy = {
  ...DEFAULT_RETRY_POLICY,
  sleep: async (ms) => {
    slept.push(ms)
  },
  random: () => 0.5,
}
const get: HttpRequest = { method: 'GET', url: 'https://bank.example/accounts?page=2' }
const status = (code: number, headers: Array<[string, string]> = []) => makeResponse(code, headers, Buffer.alloc(0))

/** A send that answers each try from `answers` (an Error is thrown), noting each try's label. */
function sender(answers: Array<HttpResponse | Error>) {
  const labels: Array<string | undefined> = []
  const send = async (req: HttpRequest) => {
    labels.push(req.label)
    const next = answers.shift()!
    if (next instanceof Error) throw next
    return next
  }
  return { send, labels }
}

describe('request-retries', () => {
  it('retries GET and HEAD unless told not to, and a POST only when asked and it carries an idempotency key', () => {
    expect(isRetryable(get)).toBe(true)
    expect(isRetryable({ method: 'head', url: 'https://b/x' })).toBe(true)
    expect(isRetryable({ ...get, retry: false })).toBe(false)
    expect(isRetryable({ method: 'POST', url: 'https://b/x' })).toBe(false)
    expect(isRetryable({ method: 'POST', url: 'https://b/x', retry: true })).toBe(false)
    expect(isRetryable({ method: 'POST', url: 'https://b/x', retry: true, headers: { 'x-idempotency-key': '' } })).toBe(
      false,
    )
    expect(
      isRetryable({ method: 'POST', url: 'https://b/x', retry: true, headers: [['X-Idempotency-Key', 'k1']] }),
    ).toBe(true)
    expect(isRetryable({ method: 'PUT', url: 'https://b/x', retry: true, headers: { 'x-idempotency-key': 'k' } })).toBe(
      false,
    )
  })

  it('sends again after a 503 and a reset, labelling each try, and says how many tries the answer took', async () => {
    slept.length = 0
    const reset = new AppError('CONNECTION_RESET', { what: 'w', cause: 'c', fix: 'f' })
    const { send, labels } = sender([status(503), reset, status(200)])
    const res = await sendWithRetries(get, policy, fixedClock(now), silentLogger, send)
    expect(res.status).toBe(200)
    expect(res.tries).toBe(3)
    expect(labels[0]).toBeUndefined()
    expect(labels[1]).toMatch(/^GET \/accounts \(try 2 of 3: .+\)$/)
    expect(labels[2]).toMatch(/^GET \/accounts \(try 3 of 3: .+\)$/)
    expect(slept).toHaveLength(2)
  })

  it('returns the last answer when the tries run out, and an answer not worth retrying at once', async () => {
    const { send } = sender([status(500), status(500), status(502)])
    expect((await sendWithRetries(get, policy, fixedClock(now), silentLogger, send)).status).toBe(502)
    const once = sender([status(404)])
    const res = await sendWithRetries({ ...get, label: 'accounts' }, policy, fixedClock(now), silentLogger, once.send)
    expect(res).toMatchObject({ status: 404, tries: 1 })
  })

  it('throws an error that stays, saying on how many tries; the first try’s error as it is', async () => {
    const reset = () =>
      new AppError('CONNECTION_RESET', { what: 'GET x failed', cause: 'c', fix: 'f', details: { a: 1 } })
    const { send } = sender([reset(), reset(), reset()])
    const err = await sendWithRetries(get, policy, fixedClock(now), silentLogger, send).catch((e: unknown) => e)
    expect(err).toMatchObject({
      code: 'CONNECTION_RESET',
      what: 'GET x failed (on each of 3 tries)',
      details: { a: 1, tries: 3 },
    })
    const refused = new AppError('CONNECTION_REFUSED', { what: 'w', cause: 'c', fix: 'f' })
    await expect(sendWithRetries(get, policy, fixedClock(now), silentLogger, sender([refused]).send)).rejects.toBe(
      refused,
    )
    const plain = new Error('not ours')
    await expect(sendWithRetries(get, policy, fixedClock(now), silentLogger, sender([plain]).send)).rejects.toBe(plain)
  })

  it('does not wait for a Retry-After over the ceiling: fails at once, naming the wait and when to run again', async () => {
    slept.length = 0
    const res = status(429, [['retry-after', '3600']])
    res.exchangeId = 'ex-1'
    const err = (await sendWithRetries(get, policy, fixedClock(now), silentLogger, sender([res]).send).catch(
      (e: unknown) => e,
    )) as AppError
    expect(err).toBeInstanceOf(AppError)
    expect(slept).toEqual([])
    expect(err.what).toMatch(
      /^GET https:\/\/bank\.example\/accounts\?page=2 answered 429 and asked to wait .+ before trying again$/,
    )
    expect(err.cause).toMatch(/waits at most 60 s for a Retry-After, so it did not retry$/)
    expect(err.fix).toBe('run the step again after 2026-01-01 13:00:00 UTC')
    expect(err.details).toMatchObject({ status: 429, retryAfterSeconds: 3600, exchangeId: 'ex-1' })
  })
})
