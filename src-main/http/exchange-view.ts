// How the exchange log shows what it keeps: a body as text or base64, masked under a redaction context
// (a body cut inside a secret member hides the part that is there), a JWT's secrecy, an error's texts.
import type { BodyDto } from '../contract/exchange.ts'
import type { AppErrorDto } from '../contract/errors.ts'
import {
  isSecretName,
  isSecretParam,
  maskSecret,
  type MaskContext,
  redactBody,
  redactText,
  redactUrl,
  secretKindOfName,
} from '../core/redact.ts'
import type { StoredBody } from './body-store.ts'
import type { FoundJwt } from './jwt-finder.ts'

export const contentTypeOf = (headers: Array<[string, string]>) =>
  headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]

function isText(bytes: Buffer, contentType?: string): boolean {
  if (contentType && /json|jwt|jose|text|xml|x-www-form-urlencoded|javascript/i.test(contentType)) return true
  if (contentType && /octet-stream|pdf|image|zip/i.test(contentType)) return false
  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)
}

const SECRET_AT_END = /("([A-Za-z_]+)"\s*:\s*")([^"]*)$/

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
  let shown = text()
  if (ctx) {
    shown = redactBody(shown, body.contentType, ctx)
    // A body cut in the middle of a secret member: hide the part that is there.
    if (body.truncated) {
      shown = shown.replace(SECRET_AT_END, (whole, head: string, name: string, value: string) => {
        const kind = secretKindOfName(name)
        return kind ? `${head}${maskSecret(value, kind, name, ctx)}` : whole
      })
    }
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
