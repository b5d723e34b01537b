import type { Context } from 'koa'
import { BodyTooLargeError, MAX_BODY_BYTES, readRawBody } from '../../http/body.ts'
import { ObApiError, UnauthorisedError } from '../../http/ob-error.ts'
import { mtlsProblem, peerCertificate } from '../../http/peer-certificate.ts'
import { checked } from '../../conformance/probe.ts'

/** v4.0: `x-idempotency-key` is at most 40 characters and matches this pattern (no leading or trailing whitespace). */
export const IDEMPOTENCY_KEY_MAX = 40
export const IDEMPOTENCY_KEY_PATTERN = /^(?!\s)(.*)(\S)$/

/** 401 (no body) unless the connection carries a transport certificate from the sandbox's issuing CA. */
export function requireMutualTls(ctx: Context): void {
  const problem = mtlsProblem(peerCertificate(ctx))
  if (problem) throw new UnauthorisedError(problem)
}

/** The `x-idempotency-key`: 400 `U007` when absent, `U006` when longer than 40 characters or not matching the v4.0 pattern. */
export function readIdempotencyKey(ctx: Context): string {
  return checked(ctx, 'idempotency.key', () => idempotencyKey(ctx))
}

function idempotencyKey(ctx: Context): string {
  const key = ctx.get('x-idempotency-key')
  if (!key) {
    throw new ObApiError(400, {
      code: 'U007',
      path: 'x-idempotency-key',
      message:
        'the x-idempotency-key header is missing: send a unique key (at most 40 characters, e.g. a UUID) and reuse it only to retry the same request',
    })
  }
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw new ObApiError(400, {
      code: 'U006',
      path: 'x-idempotency-key',
      message: `x-idempotency-key is ${key.length} characters; v4.0 allows at most ${IDEMPOTENCY_KEY_MAX} (a UUID is 36)`,
    })
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ObApiError(400, {
      code: 'U006',
      path: 'x-idempotency-key',
      message: 'x-idempotency-key must not start or end with whitespace (pattern ^(?!\\s)(.*)(\\S)$)',
    })
  }
  return key
}

/** Reads the exact body bytes (signatures are verified over these); an over-large body is 400. */
export async function readBodyBytes(ctx: Context): Promise<Buffer> {
  try {
    return await readRawBody(ctx)
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      throw new ObApiError(400, {
        code: 'U002',
        message: `the request body is over ${MAX_BODY_BYTES} bytes; a payment consent or payment is a few kilobytes`,
      })
    }
    throw err
  }
}

/** Parses body bytes as JSON: 400 `U002` naming the parse error otherwise. */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0)
    throw new ObApiError(400, {
      code: 'U002',
      message: 'the request body is empty; send the JSON body (OBWriteDomesticConsent4 or OBWriteDomestic2)',
    })
  try {
    return JSON.parse(bytes.toString('utf8'))
  } catch (err) {
    throw new ObApiError(400, {
      code: 'U002',
      message: `the request body is not valid JSON (${(err as Error).message})`,
    })
  }
}
