/**
 * What can be wrong with the PSU's return from the bank, each as its own coded error with the cause, the
 * fix and the way on (`details.wayOn`), so the console never sends the user round the same loop:
 *
 * - `new-consent`: the consent was refused (error=access_denied): a new consent, not the same one again;
 * - `authorise-again`: the same consent, sent to the bank again with a new state (a fresh request);
 * - `paste-again`: the URL was mangled or cut on the way (a fragment lost, a wrong copy): paste it again;
 * - `other-flow`: the return belongs to another flow waiting in this console (`details.otherFlowId`).
 */
import { AppError } from '../../core/app-error.ts'
import {
  explainAuthorisationError,
  parseRedirect,
  RedirectParseError,
  type CapturedRedirect,
  type CaptureSource,
} from './redirect-params.ts'

export type ReturnWayOn = 'new-consent' | 'authorise-again' | 'paste-again' | 'other-flow'

/** What the waiting authorisation expects of its return. */
export interface ExpectedReturn {
  state: string
  /** The response mode the request asked for; the hybrid flow (`code id_token`) defaults to the fragment. */
  responseMode: string
}

/** The response mode an authorisation URL asks for: its `response_mode`, else the fragment (OIDC's default for `code id_token`). */
export function responseModeOf(authorisationUrl: string | undefined): string {
  try {
    return (authorisationUrl && new URL(authorisationUrl).searchParams.get('response_mode')) || 'fragment'
  } catch {
    return 'fragment'
  }
}

const short = (s: string | undefined): string => (s === undefined ? '(none)' : s.length > 40 ? `${s.slice(0, 36)}…` : s)

/** Reads a returned URL; a text that is no return at all is a coded error (never a thrown parse error). */
export function readReturn(text: string, source: CaptureSource, repaste: boolean): CapturedRedirect {
  try {
    return parseRedirect(text, source)
  } catch (err) {
    if (!(err instanceof RedirectParseError)) throw err
    if (err.kind === 'no-response') {
      throw new AppError('AUTH_RETURN_NO_CODE', {
        what: 'The returned URL carries no authorisation code (nor an id_token or an error).',
        cause:
          `${err.message} The hybrid flow answers in the fragment (#code=…), and the fragment is what gets lost: a browser or chat tool that copies ` +
          `the address without it, or a redirect that drops it.`,
        fix: repaste
          ? 'Paste the whole address again, fragment (#…) included; copy it from the page the bank returned to.'
          : 'Authorise again: the bank sends a new code with a new request.',
        details: { wayOn: repaste ? 'paste-again' : 'authorise-again' },
      })
    }
    throw new AppError('AUTH_RETURN_NOT_A_URL', {
      what: 'The pasted text is not a returned URL.',
      cause: err.message,
      fix: err.fix,
      details: { wayOn: 'paste-again' },
    })
  }
}

/**
 * Checks a return against the authorisation it should answer; throws the coded error of its first problem.
 * `repaste`: the return was pasted (so pasting it again is a way on); `waitingFlowFor`: finds the other
 * flow of this console waiting on a state (a return pasted into the wrong flow).
 */
export function checkReturn(
  captured: CapturedRedirect,
  expected: ExpectedReturn,
  opts: { repaste: boolean; waitingFlowFor?: (state: string) => string | undefined },
): void {
  if (captured.state !== expected.state) {
    const other = captured.state ? opts.waitingFlowFor?.(captured.state) : undefined
    if (other) {
      throw new AppError('AUTH_RETURN_OTHER_FLOW', {
        what: 'The returned URL belongs to another flow of this console.',
        cause: `Its state "${short(captured.state)}" is the one flow ${other} waits for; this flow waits for "${short(expected.state)}".`,
        fix: `Hand it to flow ${other}, and paste this flow's own return here.`,
        details: { wayOn: 'other-flow', otherFlowId: other },
      })
    }
    throw new AppError('AUTH_RETURN_STATE_MISMATCH', {
      what: captured.state
        ? 'The returned URL belongs to another authorisation request.'
        : 'The returned URL carries no state.',
      cause: captured.state
        ? `Its state is "${short(captured.state)}"; this flow waits for "${short(expected.state)}". It is the return of an earlier request (the ` +
          `authorisation was started again since), of another console, or the URL was edited. The console matches returns by state so that no one else's ` +
          `code is taken.`
        : `The bank returns the request's state with the code; this URL has none (it was cut, or it is not the bank's redirect). This flow waits for ` +
          `"${short(expected.state)}".`,
      fix: opts.repaste
        ? 'Paste the return of the latest authorisation (the last time the PSU was sent to the bank from this flow); if the PSU approved an older request, ' +
          'authorise again.'
        : 'Authorise again: the PSU approves a new request, whose return carries its state.',
      details: { wayOn: opts.repaste ? 'paste-again' : 'authorise-again' },
    })
  }
  if (captured.error) {
    const { cause, fix } = explainAuthorisationError(captured.error, captured.errorDescription)
    const refused = captured.error === 'access_denied'
    throw new AppError('AUTH_RETURN_ERROR', {
      what: `The bank returned error=${captured.error}${captured.errorDescription ? ` (${captured.errorDescription})` : ''}.`,
      cause,
      fix: refused
        ? 'Start a new consent and send the PSU to authorise it: the refused consent is rejected (RJCT) and cannot be authorised again.'
        : `${fix} Then authorise again.`,
      details: { wayOn: refused ? 'new-consent' : 'authorise-again', error: captured.error, source: captured.source },
    })
  }
  if (captured.code && captured.codeIn === 'query' && expected.responseMode === 'fragment') {
    throw new AppError('AUTH_RETURN_CODE_IN_QUERY', {
      what: 'The authorisation code came in the query (?code=…), where this request asked for the fragment (#code=…).',
      cause:
        'The hybrid flow (response_type "code id_token") answers in the fragment, which browsers never send to a server; a code in the query reaches ' +
        'servers and their logs. Either the URL was rewritten on the way (edited, or passed through a tool that moves the fragment), or the bank answered ' +
        'in the wrong response mode.',
      fix: opts.repaste
        ? 'Paste the address exactly as the browser ended on it. If it really had ?code=, the bank broke the response mode: the console will not use that ' +
          'code; report it to the bank and authorise again.'
        : "The bank answered in the wrong response mode: the console will not use that code. Report it to the bank (the return is in the capture step's " +
          'output), then authorise again.',
      details: { wayOn: opts.repaste ? 'paste-again' : 'authorise-again' },
    })
  }
  if (!captured.code) {
    throw new AppError('AUTH_RETURN_NO_CODE', {
      what: 'The returned URL has the right state but no authorisation code.',
      cause:
        `It carries ${Object.keys(captured.params).join(', ') || 'nothing'}; the hybrid flow returns code, id_token and state together, so the code ` +
        `was cut from the URL on the way.`,
      fix: opts.repaste
        ? 'Paste the whole address again, fragment (#…) included.'
        : 'Authorise again: the bank sends a new code with a new request.',
      details: { wayOn: opts.repaste ? 'paste-again' : 'authorise-again' },
    })
  }
}
