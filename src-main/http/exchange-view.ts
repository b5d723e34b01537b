// How the exchange log shows what it keeps: an exchange's view, masked (tokens, codes and credentials
// masked unless the one view was asked with them revealed, private keys removed, each secret listed) or as recorded; a body as
// text or base64, masked under a redaction context (a body cut inside a secret member hides the part that
// is there), a JWT's secrecy, an error's texts.
import { isUtf8 } from 'node:buffer'
import type { BodyDto, ExchangeDto, SecretItemDto } from '../contract/exchange.ts'
import type { AppErrorDto } from '../contract/errors.ts'
import { redactBody, redactJson } from '../core/redact.ts'
import { redactHeaders, redactText, redactUrl } from '../core/redact-text.ts'
import { SecretCollector } from '../core/secret-collector.ts'
import { mayHoldSecret } from '../core/secret-quick-scan.ts'
import { maskSecret, type MaskContext } from '../core/secret-mask.ts'
import { isSecretName, isSecretParam, secretKindOfName } from '../core/secret-names.ts'
import type { BodyStore, StoredBody } from './body-store.ts'
import { diagnoseExchange } from './exchange-diagnosis.ts'
import { recordJwts, type ExchangeRecord } from './exchange-record.ts'
import { decodeFound, type FoundJwt } from './jwt-finder.ts'
import { lazyProperty } from '../plumbing/lazy-property.ts'

function isText(bytes: Buffer, contentType?: string): boolean {
  if (contentType && /json|jwt|jose|text|xml|x-www-form-urlencoded|javascript/i.test(contentType)) return true
  if (contentType && /octet-stream|pdf|image|zip/i.test(contentType)) return false
  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)
}

const SECRET_AT_END = /("([A-Za-z_]+)"\s*:\s*")([^"]*)$/

/**
 * Kept bodies in which no redaction rule can change anything (`mayHoldSecret` said so). A body never changes
 * once kept, so its quick scan (some 20 ms for 10 MB) runs on its first view, not on every one.
 */
const nothingToRedact = new WeakSet<StoredBody>()

/** Body views whose `text` is the UTF-8 of these kept bytes as they are (nothing masked), by view. */
const asKept = new WeakMap<object, Uint8Array>()

/**
 * The bytes a body view's `text` is the UTF-8 of, as kept, read without reading `text` (which decodes them):
 * the web host sends them as they are (`contract/framed-answer.ts`). Undefined for anything else.
 */
export function keptUtf8(holder: object, key: string): Uint8Array | undefined {
  return key === 'text' ? asKept.get(holder) : undefined
}

/**
 * A view whose text is the kept bytes' UTF-8, unchanged: decoded when first read (a 10 MB body costs some
 * 10 ms to decode, and the web host sends its bytes without), and given by `keptUtf8` when they are valid UTF-8.
 */
function textAsKept(base: Omit<BodyDto, 'text' | 'encoding'>, bytes: Buffer, text: () => string): BodyDto {
  const view = lazyProperty({ ...base } as BodyDto, 'text', text)
  view.encoding = 'utf8'
  if (isUtf8(bytes)) asKept.set(view, bytes)
  return view
}

/** The view of a body from its kept bytes (`bytes` undefined: no longer kept, `dropped` says why); `ctx` undefined: as received. */
export function bodyView(
  body: StoredBody,
  bytes: Buffer | undefined,
  text: () => string,
  ctx: MaskContext | undefined,
  dropped: () => string,
): BodyDto {
  const base = {
    size: body.size,
    truncated: body.truncated,
    ...(body.contentType ? { contentType: body.contentType } : {}),
  }
  if (!bytes) return { ...base, text: '', encoding: 'utf8', dropped: { reason: dropped() } }
  if (!isText(bytes, body.contentType)) return { ...base, text: bytes.toString('base64'), encoding: 'base64' }
  if (ctx && !nothingToRedact.has(body) && !mayHoldSecret(text())) nothingToRedact.add(body)
  if (!ctx || (nothingToRedact.has(body) && !body.truncated)) return textAsKept(base, bytes, text)
  let shown = text()
  if (!nothingToRedact.has(body)) shown = redactBody(shown, body.contentType, ctx)
  // A body cut in the middle of a secret member: hide the part that is there.
  if (body.truncated) {
    shown = shown.replace(SECRET_AT_END, (whole, head: string, name: string, value: string) => {
      const kind = secretKindOfName(name)
      return kind ? `${head}${maskSecret(value, kind, name, ctx)}` : whole
    })
  }
  return { ...base, text: shown, encoding: 'utf8' }
}

export function isSecretJwt(found: FoundJwt): boolean {
  return found.name === 'authorization' || isSecretName(found.name) || isSecretParam(found.name)
}

export function redactError(error: AppErrorDto, ctx: MaskContext): AppErrorDto {
  return {
    ...error,
    what: redactText(redactUrl(error.what, ctx), ctx),
    cause: redactText(error.cause, ctx),
    fix: redactText(error.fix, ctx),
  }
}

/**
 * The view of an exchange: masked (tokens, codes and credentials masked unless `collector` was made with
 * them revealed, for this one view; private keys removed; each secret listed in `secrets`), or `raw` (main
 * side only). `collector`: the secrets met, for a caller that needs them (`ExchangeLog.reveal`).
 */
export function exchangeView(
  r: ExchangeRecord,
  bodies: BodyStore,
  raw: boolean,
  collector = new SecretCollector(),
): ExchangeDto {
  const ctx = (where: string) => (raw ? undefined : collector.ctx(where))
  const headers = (h: Array<[string, string]>, where: string) => {
    const copy = h.map(([k, v]) => [k, v] as [string, string])
    const c = ctx(where)
    return c ? redactHeaders(copy, c) : copy
  }
  // Each body's bytes are read (inflated) and decoded once for the view and the JWT search.
  const side = (body: StoredBody | undefined) => {
    const bytes = bodies.bytesOf(body)
    let decoded: string | undefined
    return { bytes, text: () => (bytes ? (decoded ??= bytes.toString('utf8')) : undefined) }
  }
  const req = side(r.request.body)
  const res = side(r.response?.body)
  const jwts = (r.jwts ??= recordJwts(r, undefined, undefined, { request: req.text, response: res.text }))
  const body = (stored: StoredBody, s: typeof req, where: string) =>
    bodyView(
      stored,
      s.bytes,
      () => s.text() ?? '',
      ctx(where),
      () => bodies.droppedReason(),
    )
  const urlCtx = ctx('request URL')
  const view: ExchangeDto = {
    id: r.id,
    startedAt: r.startedAt,
    ...(r.environmentId ? { environmentId: r.environmentId } : {}),
    ...(r.identityId ? { identityId: r.identityId } : {}),
    ...(r.label ? { label: r.label } : {}),
    request: {
      method: r.request.method,
      url: urlCtx ? redactUrl(r.request.url, urlCtx) : r.request.url,
      headers: headers(r.request.headers, 'request headers'),
      ...(r.request.body ? { body: body(r.request.body, req, 'request body') } : {}),
    },
    ...(r.response
      ? {
          response: {
            status: r.response.status,
            ...(r.response.statusText ? { statusText: r.response.statusText } : {}),
            headers: headers(r.response.headers, 'response headers'),
            ...(r.response.body ? { body: body(r.response.body, res, 'response body') } : {}),
          },
        }
      : {}),
    timings: r.timings,
    reusedConnection: r.reusedConnection,
    presentedCertificate: r.presentedCertificate,
    ...(r.tls ? { tls: r.tls } : {}),
    ...(r.error ? { error: raw ? r.error : redactError(r.error, collector.ctx('error')) } : {}),
    jwts: jwts.map((j) => {
      if (raw) return decodeFound(j, j.compact)
      const c = collector.ctx(`JWT ${j.location}`)
      const decoded = decodeFound(j, isSecretJwt(j) ? maskSecret(j.compact, 'token', j.name, c) : j.compact)
      // Claims are what a developer debugs, and stay; anything secret inside them does not.
      if (decoded.claims) decoded.claims = redactJson(decoded.claims, c) as Record<string, unknown>
      return decoded
    }),
    redacted: false,
  }
  view.diagnosis = diagnoseExchange(view)
  if (!raw) {
    const secrets: SecretItemDto[] = collector.items({ distinct: true })
    view.redacted = collector.anyHidden()
    if (secrets.length) view.secrets = secrets
  }
  return view
}
