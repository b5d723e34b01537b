import type { Context } from 'koa'
import { BodyTooLargeError, MAX_BODY_BYTES, readRawBody } from '../http/body.ts'
import { bearerChallengeValue, setHeaders } from '../http/header-value.ts'
import { mtlsProblem, peerCertificate, type PeerCertificate } from '../http/peer-certificate.ts'

/** Answers with an OAuth-style error body `{error, error_description}` (RFC 6749 / RFC 7591). */
export function oauthError(
  ctx: Context,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  ctx.status = status
  setHeaders(ctx, headers)
  ctx.set('Cache-Control', 'no-store')
  ctx.body = { error, error_description: description.slice(0, 500) }
}

/** `WWW-Authenticate: Bearer ...` for a refused bearer token (RFC 6750). */
export function bearerChallenge(error: string, description: string): Record<string, string> {
  return { 'WWW-Authenticate': bearerChallengeValue(error, description) }
}

/**
 * The transport certificate of this mutual-TLS request, or undefined after answering 401
 * `invalid_client` with the sentence that names the problem (no certificate, or another CA's).
 */
export function requireTransportCertificate(ctx: Context): PeerCertificate | undefined {
  const peer = peerCertificate(ctx)
  const problem = mtlsProblem(peer)
  if (problem) {
    oauthError(ctx, 401, 'invalid_client', problem)
    return undefined
  }
  return peer
}

/** Reads the raw body, or answers 413 and returns undefined when it is too large. */
export async function readBodyOr413(ctx: Context, error = 'invalid_request'): Promise<Buffer | undefined> {
  try {
    return await readRawBody(ctx)
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      oauthError(ctx, 413, error, `the request body is larger than ${MAX_BODY_BYTES} bytes`)
      return undefined
    }
    throw err
  }
}

/** The bearer token of the Authorization header, or undefined. */
export function bearerToken(ctx: Context): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1]
}

/** The client id and secret of an `Authorization: Basic` header (RFC 6749 2.3.1 form-decoding), or undefined. */
export function basicCredentials(ctx: Context): { clientId: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(ctx.get('authorization'))
  if (!match) return undefined
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    }
  } catch {
    return undefined
  }
}

/** `decodeURIComponent`, or undefined for a malformed percent-encoding. */
export function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
