import { AppError } from '../../core/app-error.ts'
import { explainErrorResponse } from '../../http/response-errors.ts'
import type { FlowResponse } from '../flow-context.ts'

/**
 * The error for a bank answer that is not what the step needed. Error statuses are explained by the
 * http layer (Open Banking `Errors[]` with each U-code explained, DCR and OAuth errors, bare statuses);
 * the step says what it was doing, and adds its own advice when the bank's code has no specific fix.
 */
export function unexpectedAnswer(res: FlowResponse, what: string, fix: string): AppError {
  const explained = explainErrorResponse({
    method: '',
    url: '',
    status: res.status,
    headers: Object.entries(res.headers),
    bodyText: res.text,
  })
  if (explained) {
    const generic = explained.code === 'HTTP_ERROR'
    // A failure or throttling on the bank's side: the step's advice about the request does not apply.
    const banksSide = res.status >= 500 || res.status === 429
    const sentence = (t: string) => (t ? `${t[0]!.toUpperCase()}${t.slice(1)}${t.endsWith('.') ? '' : '.'}` : t)
    return new AppError(explained.code, {
      what: `${what}: ${res.status}${explained.problems?.length ? ` ${explained.problems.map((p) => p.code).join(', ')}` : ''}.`,
      cause: sentence(explained.cause),
      fix: banksSide
        ? `${sentence(explained.fix)} Nothing in your request causes this; the exchange log holds the answer.`
        : generic
          ? `${fix} (${explained.fix})`
          : `${explained.fix} ${fix}`,
      ...(explained.details ? { details: explained.details } : {}),
      ...(explained.problems ? { problems: explained.problems } : {}),
    })
  }
  return new AppError('HTTP_ERROR', {
    what: `${what}: HTTP ${res.status} without the expected body.`,
    cause: `The bank answered ${res.status}${res.text ? `: ${res.text.slice(0, 300)}` : ' with no body'}.`,
    fix,
    details: { status: res.status },
  })
}
