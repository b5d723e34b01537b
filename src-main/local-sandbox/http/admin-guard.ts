import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context, Middleware, Next } from 'koa'
import { loadOrCreateJson, type BankDocuments } from '../store/bank-documents.ts'

/** What the admin token guards on the directory's origin: every `/admin/*` endpoint and onboarding (its answer holds private keys). */
export function isGuardedAdminRequest(method: string, path: string): boolean {
  return path.startsWith('/admin/') || path === '/admin' || (method === 'POST' && path === '/tpps')
}

/** The least length of an admin token, in characters. */
export const ADMIN_TOKEN_MIN_LENGTH = 24

/** Why `token` cannot be an admin token; undefined when it can. */
export function adminTokenProblem(token: string): string | undefined {
  if (token.length < ADMIN_TOKEN_MIN_LENGTH)
    return `it is ${token.length} characters long; an admin token has at least ${ADMIN_TOKEN_MIN_LENGTH} (e.g. openssl rand -base64 32)`
  if (!/^[\x21-\x7e]+$/.test(token))
    return 'it holds spaces or characters outside printable ASCII; use letters, digits and punctuation'
  return undefined
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/** The bank document that keeps a generated admin token's SHA-256 (never the token). */
export const ADMIN_TOKEN_DOCUMENT = 'auth/admin-token.json'

/**
 * The admin token's SHA-256 when none was given but one is required: read from the bank documents, or
 * made now (under the bank-wide lock, so instances starting at once on one store make one). `token` is
 * set only for the instance that made it: the one place it can ever be shown.
 */
export async function generatedAdminToken(docs: BankDocuments): Promise<{ sha256: Buffer; token?: string }> {
  let made: string | undefined
  const stored = await loadOrCreateJson<{ sha256: string }>(docs, ADMIN_TOKEN_DOCUMENT, async () => {
    made = randomBytes(32).toString('base64url')
    return { sha256: sha256(made).toString('base64url') }
  })
  return { sha256: Buffer.from(stored.sha256, 'base64url'), ...(made ? { token: made } : {}) }
}

/**
 * Requires `Authorization: Bearer <admin token>` on the guarded requests (see isGuardedAdminRequest) when
 * `token` (or its SHA-256) is set; without one every request passes, as on a sandbox only its own machine reaches. The
 * comparison is of SHA-256 digests in constant time. A refusal is 401 with a `WWW-Authenticate` challenge
 * and an OAuth-style body naming the fix; the token is never echoed or logged.
 */
export function adminGuard(token: string | { sha256: Buffer } | undefined): Middleware {
  const expected = token === undefined ? undefined : typeof token === 'string' ? sha256(token) : token.sha256
  return async (ctx: Context, next: Next) => {
    if (!expected || !isGuardedAdminRequest(ctx.method, ctx.path)) return next()
    const match = /^Bearer ([\x21-\x7e]+)$/.exec(ctx.get('authorization'))
    if (match && timingSafeEqual(sha256(match[1]!), expected)) return next()
    ctx.status = 401
    ctx.set('WWW-Authenticate', 'Bearer realm="local sandbox admin"')
    ctx.set('Cache-Control', 'no-store')
    ctx.body = {
      error: 'unauthorized',
      error_description: match
        ? `the bearer token is not this sandbox's admin token; ${ctx.method} ${ctx.path} needs the token the sandbox printed when it created it, or the one in its --admin-token-file`
        : `${ctx.method} ${ctx.path} needs the sandbox's admin token: send "Authorization: Bearer <token>" (the token the sandbox printed when it created it, or the one in its --admin-token-file)`,
    }
  }
}
