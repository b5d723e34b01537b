import { AppError, type AppErrorProblem } from '../../core/app-error.ts'
import type { FlowResponse } from '../flow-context.ts'

/**
 * The error for a bank answer that is not what the step needed: OAuth and DCR errors (`error`,
 * `error_description`), Open Banking errors (`Errors[]` with 4-character codes), or a bare status. The
 * message names the call, the status and the bank's words; the fix says what usually causes it.
 */
export function unexpectedAnswer(res: FlowResponse, what: string, fix: string): AppError {
  const body = res.json as Record<string, unknown> | undefined
  const interaction = res.headers['x-fapi-interaction-id']
  const details = { status: res.status, ...(interaction ? { 'x-fapi-interaction-id': interaction } : {}) }
  if (body && typeof body.error === 'string') {
    const dcr = ['invalid_software_statement', 'invalid_redirect_uri', 'invalid_client_metadata', 'unapproved_software_statement'].includes(body.error)
    return new AppError(dcr ? 'DCR_ERROR' : 'OAUTH_ERROR', {
      what: `${what}: ${res.status} ${body.error}.`,
      cause: typeof body.error_description === 'string' ? `The bank said: ${body.error_description}` : `The bank answered the ${dcr ? 'DCR' : 'OAuth'} error ${body.error}.`,
      fix,
      details,
      problems: [{ code: body.error, message: String(body.error_description ?? body.error) }],
    })
  }
  if (body && Array.isArray(body.Errors)) {
    const problems: AppErrorProblem[] = (body.Errors as Array<Record<string, string>>).map((e) => ({ code: e.ErrorCode ?? '?', message: e.Message ?? '', ...(e.Path ? { path: e.Path } : {}) }))
    return new AppError('OB_ERROR', {
      what: `${what}: ${res.status} ${problems.map((p) => p.code).join(', ')}.`,
      cause: problems.map((p) => `${p.code}${p.path ? ` at ${p.path}` : ''}: ${p.message}`).join('; '),
      fix,
      details,
      problems,
    })
  }
  const retryAfter = res.headers['retry-after']
  return new AppError('HTTP_ERROR', {
    what: `${what}: HTTP ${res.status}.`,
    cause: res.status === 401
      ? `The bank refused the access token (${res.headers['www-authenticate'] ?? 'no details'}).`
      : res.status === 429
        ? `The bank throttled the call${retryAfter ? `; retry after ${retryAfter} s` : ''}.`
        : `The bank answered ${res.status}${res.text ? `: ${res.text.slice(0, 300)}` : ' with no body'}.`,
    fix,
    details,
  })
}
