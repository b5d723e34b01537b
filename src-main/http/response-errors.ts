import type { ErrorProblem } from '../contract/errors.ts'
import { AppError } from '../core/app-error.ts'
import { obCodeInfo } from './ob-error-codes.ts'
import { describeRetryAfter } from './retry-after.ts'
import { headerValue } from '../core/header-lookup.ts'

/** Which kind of API answered: decides how an error body is read. `auto` looks at the body. */
export type ApiKind = 'ob' | 'dcr' | 'oauth' | 'other' | 'auto'

/** The parts of a response the explanation needs. */
export interface ErrorResponseInput {
  method: string
  url: string
  status: number
  headers: Array<[string, string]>
  bodyText: string
}

export const DCR_ERRORS: Record<string, string> = {
  invalid_redirect_uri:
    "a redirect URI of the request is not one of the software statement's software_redirect_uris (or is not https). Register only URIs the directory holds for the software.",
  invalid_client_metadata:
    'a claim of the registration JWT has a value the bank refuses (aud, exp, scope, grant_types, token_endpoint_auth_method...). error_description names it.',
  invalid_software_statement:
    'the software statement is not valid: not signed by the directory, expired, malformed, or for unknown software. Get a fresh SSA from the directory.',
  unapproved_software_statement:
    "the software statement is valid but not approved here: the organisation is not active, or the transport certificate does not belong to the SSA's organisation.",
}

export const OAUTH_ERRORS: Record<string, string> = {
  invalid_request: 'a parameter is missing, repeated or malformed (error_description names it).',
  invalid_client:
    'client authentication failed: unknown client_id, a client assertion with the wrong aud (must be the token endpoint), an expired or reused assertion, a kid not in the software JWKS, another auth method than the one registered, or a transport certificate other than the registered one.',
  invalid_grant:
    'the authorisation code or refresh token is invalid, expired, already used, or was issued for another redirect_uri or client. Codes are short-lived and single-use: run the authorisation again.',
  unauthorized_client: 'the client is not allowed this grant type: register with grant_types including it.',
  unsupported_grant_type: 'the token endpoint does not support this grant_type.',
  invalid_scope:
    'the scope is unknown or beyond what the client registered (accounts needs the AISP role, payments the PISP role).',
  access_denied:
    'the PSU or the bank refused the authorisation; the consent is now rejected. Create a new consent to try again.',
  invalid_request_object:
    'the request object is invalid: bad signature or alg, aud not the issuer, exp/nbf outside the window, or a missing claim (openbanking_intent_id, nonce, redirect_uri).',
  request_not_supported: 'the authorisation server does not accept a request object here.',
  login_required: 'the PSU must log in; prompt=none cannot be used.',
  consent_required: 'the PSU must authorise; prompt=none cannot be used.',
  invalid_token:
    'the access token is missing, expired, revoked, or bound to another transport certificate. Get a new token.',
  insufficient_scope: 'the access token lacks the scope this endpoint needs (accounts or payments).',
  server_error: 'the authorisation server failed unexpectedly. Retry later.',
  temporarily_unavailable: 'the authorisation server is overloaded or under maintenance. Retry later.',
}

const STATUS_TEXT: Record<number, [string, string]> = {
  400: [
    'the request is malformed or a resource id is unknown (Open Banking answers 400, not 404, for unknown ids)',
    'check the body and headers against the spec',
  ],
  401: [
    'the access token is missing, invalid or expired (Open Banking sends no body with 401)',
    'get a new token (client credentials for consents, authorisation code for data) and send it as Authorization: Bearer',
  ],
  403: [
    'the token lacks the scope or the consent lacks the permission, or the resource belongs to another TPP',
    "check the token's scope and the consent's permissions",
  ],
  404: [
    'the path is not an endpoint of this API',
    'check the base URL and the API version in the path (/open-banking/v4.0/aisp ...)',
  ],
  405: ['this method is not allowed on this endpoint', 'check the method against the spec'],
  406: ['the Accept header asks for a format the bank cannot produce', 'send Accept: application/json or leave it out'],
  409: ['the resource already exists (the consent was already used)', 'create a new consent for a new payment'],
  415: ['the Content-Type is not accepted', 'send Content-Type: application/json (application/jwt for registration)'],
  429: ['too many requests: the bank throttles this client', 'wait for the Retry-After period before retrying'],
  500: ['the bank failed unexpectedly', 'retry later; report it with the x-fapi-interaction-id if it persists'],
  502: ['a gateway in front of the bank failed', 'retry later'],
  503: ['the service is unavailable (maintenance or a deprecated version)', 'retry later; check the API version'],
  504: [
    'a gateway in front of the bank timed out',
    'retry later; a payment may still have been created: read its status before sending it again',
  ],
}

/** The explanation of an `ErrorCode` that is none of the v4.0 codes nor their v3.1 names. */
function outsideObList(code: string): string {
  return `${code ? `"${code}"` : 'An empty ErrorCode'} is not an Open Banking v4.0 error code (U000 to U042, TKXP, TKSP, AM04, or their v3.1 UK.OBIE names): the bank's own code, which only its Message and the bank's documentation explain. Ask the bank what it means, and that it sends the v4.0 code.`
}

const header = headerValue

/** The title of an HTML body ('' for a page without one); undefined when the body is not HTML. */
function htmlPage(text: string): string | undefined {
  if (!/^\s*(<!doctype html|<html|<head|<body|<center|<h1)/i.test(text)) return undefined
  return (
    (/<title[^>]*>([^<]{1,120})<\/title>/i.exec(text) ?? /<h1[^>]*>([^<]{1,120})<\/h1>/i.exec(text))?.[1] ?? ''
  ).trim()
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** An OB error body (`Errors[]`) explained: every entry's code (v4.0 and its v3.1 name), message and path. */
function obError(
  what: string,
  body: Record<string, unknown>,
  errors: unknown[],
  details: { status: number; url: string; interactionId?: string },
): AppError {
  const problems: ErrorProblem[] = errors.map((e) => {
    const entry = (e ?? {}) as Record<string, unknown>
    const code = String(entry.ErrorCode ?? '')
    const info = obCodeInfo(code)
    return {
      code:
        info && info.code !== code
          ? `${info.code} (${code})`
          : info
            ? `${code} ${info.name}`
            : `${code || '(no ErrorCode)'} (outside the Open Banking v4.0 list)`,
      message: String(entry.Message ?? ''),
      ...(entry.Path ? { path: String(entry.Path) } : {}),
      explanation: info ? info.explanation : outsideObList(code),
    }
  })
  const first = problems[0]!
  // The v4.0 error body's own Code and Message, when the bank sent them.
  const top = [body.Code, body.Message].filter((v) => typeof v === 'string' && v !== '').join(': ')
  return new AppError('OB_ERROR', {
    what,
    cause: `${first.code}: ${first.message || first.explanation || 'no message'}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}${top ? ` (the bank's Code and Message: ${top})` : ''}`,
    fix: first.explanation ?? 'read the error entries; each names the field (Path) and the problem',
    details,
    problems,
  })
}

/**
 * Explains an HTTP error response (status 400 and above) as an AppError: OB_ERROR with every
 * `Errors[]` entry and its code explained (both the v4.0 code and the v3.1 name), DCR_ERROR and
 * OAUTH_ERROR with the `error` explained, or HTTP_ERROR with the status explained. Undefined for
 * successful responses.
 *
 * @example const error = explainErrorResponse({ method, url, status, headers, bodyText }, 'oauth'); if (error) throw error
 */
export function explainErrorResponse(
  res: ErrorResponseInput,
  api: ApiKind = 'auto',
  now: Date = new Date(),
): AppError | undefined {
  if (res.status < 400) return undefined
  const what = `${res.method} ${res.url} answered ${res.status}`
  const body = parseJson(res.bodyText)
  const interactionId = header(res.headers, 'x-fapi-interaction-id')
  const details = { status: res.status, url: res.url, ...(interactionId ? { interactionId } : {}) }

  const errors = body?.Errors
  if ((api === 'ob' || api === 'auto') && Array.isArray(errors) && errors.length)
    return obError(what, body!, errors, details)

  const error = typeof body?.error === 'string' ? body.error : undefined
  const description = typeof body?.error_description === 'string' ? body.error_description : undefined
  if (error && (api === 'dcr' || (api === 'auto' && error in DCR_ERRORS))) {
    return new AppError('DCR_ERROR', {
      what,
      cause: `${error}${description ? `: ${description}` : ''}`,
      fix: DCR_ERRORS[error] ?? 'read error_description; correct the registration request and send a new one (new jti)',
      details,
      problems: [
        { code: error, message: description ?? '', ...(DCR_ERRORS[error] ? { explanation: DCR_ERRORS[error] } : {}) },
      ],
    })
  }
  const wwwAuth = header(res.headers, 'www-authenticate')
  const bearerError = wwwAuth ? /error="([^"]+)"/.exec(wwwAuth)?.[1] : undefined
  const bearerDescription = wwwAuth ? /error_description="([^"]*)"/.exec(wwwAuth)?.[1] : undefined
  const oauthError = error ?? bearerError
  if (oauthError && api !== 'ob') {
    const desc = description ?? bearerDescription
    return new AppError('OAUTH_ERROR', {
      what,
      cause: `${oauthError}${desc ? `: ${desc}` : ''}`,
      fix: OAUTH_ERRORS[oauthError] ?? 'read error_description and correct the request',
      details,
      problems: [
        {
          code: oauthError,
          message: desc ?? '',
          ...(OAUTH_ERRORS[oauthError] ? { explanation: OAUTH_ERRORS[oauthError] } : {}),
        },
      ],
    })
  }
  const [cause, fix] = STATUS_TEXT[res.status] ?? [
    res.status >= 500 ? 'the server failed' : 'the server refused the request',
    'read the response body',
  ]
  const retryAfter = header(res.headers, 'retry-after')
  const page = htmlPage(res.bodyText)
  const said =
    page !== undefined
      ? `; the body is an HTML page${page ? ` ("${page}")` : ''}, from a gateway in front of the bank rather than its API`
      : !body && res.bodyText.trim() === ''
        ? '; the body is empty'
        : ''
  return new AppError('HTTP_ERROR', {
    what,
    cause: `${bearerError ? `${cause} (${bearerError}${bearerDescription ? `: ${bearerDescription}` : ''})` : cause}${said}`,
    fix: retryAfter ? `${fix} (Retry-After: ${describeRetryAfter(retryAfter, now)})` : fix,
    details: { ...details, ...(retryAfter ? { retryAfter } : {}) },
  })
}
