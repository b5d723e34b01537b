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

/** 406 unless the client accepts `application/json` (an absent Accept header accepts anything). */
export function requireAcceptJson(ctx: Context): void {
  checked(ctx, 'headers.required', () => acceptJson(ctx))
}

function acceptJson(ctx: Context): void {
  const accept = ctx.get('accept')
  // Absent, or exactly application/json (what clients send): no negotiation needed.
  if (!accept || accept === 'application/json') return
  if (!ctx.accepts('application/json')) {
    throw new ObApiError(406, {
      code: 'U006',
      path: 'Accept',
      message: `Accept "${ctx.get('accept')}" does not allow application/json, the only media type the sandbox answers PIS calls with (no application/jose+jwe)`,
    })
  }
}

/** 415 unless the body is `application/json` (optionally `; charset=utf-8`). */
export function requireJsonContentType(ctx: Context): void {
  checked(ctx, 'headers.required', () => jsonContentType(ctx))
}

function jsonContentType(ctx: Context): void {
  const type = ctx.get('content-type')
  // Read the header itself: ctx.is() answers null for a request without a body.
  const mediaType = type.split(';')[0]!.trim().toLowerCase()
  const charset = /;\s*charset=([^;\s]+)/i.exec(type)?.[1]?.replace(/"/g, '').toLowerCase()
  if (mediaType !== 'application/json' || (charset !== undefined && charset !== 'utf-8')) {
    throw new ObApiError(415, {
      code: 'U006',
      path: 'Content-Type',
      message: type
        ? `Content-Type "${type}" is not supported; send the body as application/json (UTF-8). Encrypted bodies (application/jose+jwe) are not supported by the sandbox`
        : 'the Content-Type header is missing; send Content-Type: application/json',
    })
  }
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
