// Retrying a request the bank may answer on a later try: which requests are safe to send again, and the
// loop that sends one up to the policy's number of times (each try its own exchange in the log, labelled
// with its number and why it was sent again). The decisions are `retry-policy.ts`'s; `http-client.ts`
// sends each try.
import { AppError, isAppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { Logger } from '../core/logger.ts'
import { headerPairs, type HttpRequest, type HttpResponse } from './http-message.ts'
import { explainErrorResponse } from './response-errors.ts'
import { describeRetryAfter } from './retry-after.ts'
import { decideRetry, type RetryPolicy } from './retry-policy.ts'
import { headerValues } from '../core/header-lookup.ts'

/** GET and HEAD unless told not to; a POST only when asked and it carries an idempotency key (the same on every try). */
export function isRetryable(req: HttpRequest): boolean {
  if (req.retry === false) return false
  const method = req.method.toUpperCase()
  if (method === 'GET' || method === 'HEAD') return true
  return (
    req.retry === true &&
    method === 'POST' &&
    headerValues(headerPairs(req.headers), 'x-idempotency-key').some((v) => v.length > 0)
  )
}

/**
 * Tries `req` up to the policy's number of times through `send` (one try each call). Retries on a reset,
 * a 5xx or a 429, after an exponential backoff with jitter or the bank's Retry-After; a Retry-After over
 * the policy's ceiling is not waited for: the request fails at once, saying how long the bank asked to
 * wait. An error that stays is thrown saying on how many tries it came.
 */
export async function sendWithRetries(
  req: HttpRequest,
  policy: RetryPolicy,
  clock: Clock,
  logger: Logger,
  send: (req: HttpRequest) => Promise<HttpResponse>,
): Promise<HttpResponse> {
  let why = ''
  for (let attempt = 1; ; attempt++) {
    const label = req.label ?? `${req.method} ${new URL(req.url).pathname}`
    const tryReq: HttpRequest =
      attempt === 1 ? req : { ...req, label: `${label} (try ${attempt} of ${policy.tries}: ${why})` }
    let res: HttpResponse
    try {
      res = await send(tryReq)
    } catch (err) {
      const code = isAppError(err) ? err.code : 'INTERNAL'
      const decision = decideRetry(policy, attempt, { kind: 'error', code }, clock.now())
      if (!decision.retry) {
        if (attempt === 1 || !isAppError(err)) throw err
        throw new AppError(err.code, {
          what: `${err.what} (on each of ${attempt} tries)`,
          cause: err.cause,
          fix: err.fix,
          ...(err.details ? { details: { ...err.details, tries: attempt } } : { details: { tries: attempt } }),
          ...(err.problems ? { problems: err.problems } : {}),
          source: err,
        })
      }
      why = decision.reason
      logger.info('retrying', { method: req.method, url: req.url, attempt, code, delayMs: decision.delayMs })
      await policy.sleep(decision.delayMs)
      continue
    }
    res.tries = attempt
    const retryAfter = res.header('retry-after')
    const decision = decideRetry(
      policy,
      attempt,
      { kind: 'response', status: res.status, ...(retryAfter !== undefined ? { retryAfter } : {}) },
      clock.now(),
    )
    if (!decision.retry) {
      if (decision.tooLong) throw waitTooLong(req, res, decision.tooLong.seconds, retryAfter, policy, clock.now())
      return res
    }
    why = decision.reason
    logger.info('retrying', {
      method: req.method,
      url: req.url,
      attempt,
      status: res.status,
      delayMs: decision.delayMs,
    })
    await policy.sleep(decision.delayMs)
  }
}

/** The error for a 429/5xx whose Retry-After is longer than the console waits. */
function waitTooLong(
  req: HttpRequest,
  res: HttpResponse,
  seconds: number,
  retryAfter: string | undefined,
  policy: RetryPolicy,
  now: Date,
): AppError {
  const explained = explainErrorResponse({
    method: req.method,
    url: req.url,
    status: res.status,
    headers: res.headers,
    bodyText: res.text(),
  })
  const until = new Date(now.getTime() + seconds * 1000).toISOString().replace('T', ' ').slice(0, 19)
  return new AppError(explained?.code ?? 'HTTP_ERROR', {
    what: `${req.method} ${req.url} answered ${res.status} and asked to wait ${describeRetryAfter(retryAfter, now)} before trying again`,
    cause: `${explained ? `${explained.cause}. ` : ''}The console waits at most ${Math.round(policy.retryAfterCeilingMs / 1000)} s for a Retry-After, so it did not retry`,
    fix: `run the step again after ${until} UTC`,
    details: {
      ...explained?.details,
      status: res.status,
      retryAfterSeconds: seconds,
      ...(res.exchangeId ? { exchangeId: res.exchangeId } : {}),
    },
    ...(explained?.problems ? { problems: explained.problems } : {}),
  })
}
