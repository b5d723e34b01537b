import type { ExchangeDiagnosisDto } from '../contract/diagnosis.ts'
import type { ExchangeDto } from '../contract/exchange.ts'
import { AppError } from '../core/app-error.ts'
import { explainErrorResponse, OAUTH_ERRORS, type ApiKind } from './response-errors.ts'
import { SPEC, specReferencesFor } from './spec-references.ts'
import { headerValue } from '../core/header-lookup.ts'

const header = headerValue

/** Registration answers errors as RFC 7591 says; everything else is read by its body. */
function apiOf(url: string): ApiKind {
  return /\/register(\/|$|\?)/.test(url) ? 'dcr' : 'auto'
}

/** The `error` an authorisation server put in a redirect (query or fragment), with its description and state. */
function redirectError(location: string): { error: string; description?: string } | undefined {
  const hash = location.indexOf('#')
  const query = location.indexOf('?')
  const fragment = hash >= 0 ? location.slice(hash + 1) : ''
  const search = query >= 0 ? location.slice(query + 1, hash > query ? hash : undefined) : ''
  for (const part of [fragment, search]) {
    if (!part) continue
    const params = new URLSearchParams(part)
    const error = params.get('error')
    if (error)
      return { error, ...(params.get('error_description') ? { description: params.get('error_description')! } : {}) }
  }
  return undefined
}

function sentence(text: string): string {
  const t = text.trim()
  return t ? `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?)]$/.test(t) ? '' : '.'}` : t
}

/**
 * What one exchange comes to, explained the way the flows explain their failures: a transport failure's
 * coded error as recorded; an error status read from its answer (each Open Banking `Errors[].ErrorCode`
 * explained with its v3.1 name, DCR and OAuth errors, a bare status); a redirect carrying `error=` (the
 * authorisation server refused); otherwise `ok`. Each failure names the spec sections it rests on.
 * Made from the view given (masked as it is), so it quotes nothing the view does not show.
 *
 * @example diagnoseExchange(log.get(id)) // { outcome: 'failed', summary: '400 Bad Request: U002 UK.OBIE.Field.Invalid…', error, spec }
 */
export function diagnoseExchange(x: ExchangeDto): ExchangeDiagnosisDto {
  const req = { method: x.request.method, url: x.request.url }
  if (x.error) {
    const summary = `${x.response ? `${x.response.status}: ` : 'No answer: '}${sentence(x.error.cause)}`
    return { outcome: 'failed', summary, error: x.error, spec: specReferencesFor(x.error, req) }
  }
  const res = x.response
  if (!res) {
    const error = new AppError('NETWORK_ERROR', {
      what: `${req.method} ${req.url} has no answer`,
      cause: 'the exchange was recorded without a response and without an error',
      fix: 're-run the step that made it',
    }).toData()
    return { outcome: 'failed', summary: 'No answer was recorded.', error, spec: [] }
  }
  const statusLine = `${res.status}${res.statusText ? ` ${res.statusText}` : ''}`
  if (res.status >= 400) {
    const body = res.body
    const bodyText = body && body.encoding === 'utf8' && !body.dropped ? body.text : ''
    // Retry-After is read at the time of the exchange, not of this reading.
    const answeredAt = new Date(Date.parse(x.startedAt) + x.timings.total)
    const explained = explainErrorResponse(
      { ...req, status: res.status, headers: res.headers, bodyText },
      apiOf(req.url),
      answeredAt,
    )!.toData()
    const error = body?.dropped
      ? {
          ...explained,
          cause: `${explained.cause} (the answer's body is no longer kept, so only its status and headers were read)`,
        }
      : explained
    // The codes say it in a line; the cause and each entry follow in the error.
    const codes = error.problems?.map((p) => p.code).join(', ')
    return {
      outcome: 'failed',
      summary: `${statusLine}: ${codes ? `${codes}.` : sentence(error.cause)}`,
      error,
      spec: specReferencesFor(error, req),
    }
  }
  const location = header(res.headers, 'location')
  if (res.status >= 300 && location) {
    const refused = redirectError(location)
    if (refused) {
      const error = new AppError('OAUTH_ERROR', {
        what: `${req.method} ${req.url} redirected with error=${refused.error}`,
        cause: `${refused.error}${refused.description ? `: ${refused.description}` : ''}`,
        fix: OAUTH_ERRORS[refused.error] ?? 'read error_description and correct the authorisation request',
        details: { status: res.status },
        problems: [
          {
            code: refused.error,
            message: refused.description ?? '',
            ...(OAUTH_ERRORS[refused.error] ? { explanation: OAUTH_ERRORS[refused.error] } : {}),
          },
        ],
      }).toData()
      const spec = [
        SPEC.oauthAuthzError,
        ...(/request_object|request_not/.test(refused.error) ? [SPEC.requestObject] : []),
      ]
      return {
        outcome: 'failed',
        summary: `${statusLine}: the authorisation server sent the PSU back with error=${refused.error}.`,
        error,
        spec,
      }
    }
    return { outcome: 'ok', summary: `${statusLine}: a redirect to ${location.split(/[?#]/)[0]}.`, spec: [] }
  }
  return { outcome: 'ok', summary: `${statusLine}: answered without an error.`, spec: [] }
}
