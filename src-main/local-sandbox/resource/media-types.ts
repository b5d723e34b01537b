/**
 * The AIS and PIS resource servers' media type checks (the `headers.required` rule): 406 `U006` unless the
 * `Accept` header admits what the endpoint produces, 415 `U006` unless a request body is declared JSON.
 */
import type { Context } from 'koa'
import { checked } from '../conformance/probe.ts'
import { ObApiError } from '../http/ob-error.ts'

/** The most of a request header a message quotes. */
const QUOTED_MAX = 100

/**
 * 406 unless the `Accept` header admits `mediaType` (absent, `*` + `/*`, `application/*` and the type itself
 * all do). Error bodies are JSON regardless.
 */
export function requireAccept(ctx: Context, mediaType = 'application/json'): void {
  checked(ctx, 'headers.required', () => acceptCheck(ctx, mediaType))
}

function acceptCheck(ctx: Context, mediaType: string): void {
  const accept = ctx.get('accept')
  // The header naming exactly the type (what clients send) admits it without negotiation.
  if (!accept || accept === mediaType || ctx.accepts(mediaType)) return
  throw new ObApiError(406, {
    code: 'U006',
    path: 'Accept',
    message: `Accept "${accept.slice(0, QUOTED_MAX)}" does not admit ${mediaType}, the only media type this endpoint produces; send Accept: ${mediaType} or leave the header out (the sandbox does not answer application/jose+jwe)`,
  })
}

/** 415 unless the request body is declared `application/json`, with no charset or UTF-8's. */
export function requireJsonContentType(ctx: Context): void {
  checked(ctx, 'headers.required', () => contentTypeCheck(ctx))
}

function contentTypeCheck(ctx: Context): void {
  // The header itself: ctx.is() answers null for a request without a body.
  const type = ctx.get('content-type')
  const [mediaType, ...params] = type.split(';').map((s) => s.trim().toLowerCase())
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '')
  if (mediaType === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8')) return
  const sent = type ? `Content-Type "${type.slice(0, QUOTED_MAX)}"` : 'no Content-Type'
  throw new ObApiError(415, {
    code: 'U006',
    path: 'Content-Type',
    message: `the request has ${sent}; send the JSON body with Content-Type: application/json (application/jose+jwe is not supported by the sandbox)`,
  })
}
