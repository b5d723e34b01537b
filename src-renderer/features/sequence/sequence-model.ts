/**
 * The sequence diagram of one flow as data: who talks to whom, in the order the exchanges happened.
 * Exchanges are placed on lanes by their URL (the environment's resource API paths, the directory's
 * origin) and label (the headless authorisation hops act for the PSU); the PSU's part (sent to the
 * bank's page or app, coming back with the code) comes from the flow's authorisation steps.
 */
import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import type { ExchangeSummaryDto } from '../../../src-main/contract/exchange-summaries.ts'
import type { FlowState } from '../../../src-main/contract/flows.ts'

export type Lane = 'tpp' | 'as' | 'rs' | 'psu' | 'directory'

export const LANES: Array<{ id: Lane; title: string }> = [
  { id: 'tpp', title: 'TPP (console)' },
  { id: 'psu', title: 'PSU / bank app' },
  { id: 'as', title: 'Authorisation server' },
  { id: 'rs', title: 'Resource server' },
  { id: 'directory', title: 'Directory' },
]

export interface SequenceArrow {
  /** Exchange id; absent for the PSU's steps (they are not HTTP calls the console made). */
  exchangeId?: string
  from: Lane
  to: Lane
  /** The request line, e.g. `POST /token`. */
  label: string
  /** The answer, e.g. `201` or an error code; absent for the PSU's steps and calls still in flight. */
  answer?: string
  failed: boolean
  at: string
}

const AUTH_URL_STEP = 'authorisation-url'
const CAPTURE_STEP = 'capture'

function origin(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/** The lane an exchange goes to, and the lane it comes from. */
export function classify(
  x: ExchangeSummaryDto,
  env: Pick<EnvironmentDto, 'apiPaths'> | undefined,
  directoryUrl: string | undefined,
): { from: Lane; to: Lane } {
  const label = (x.label ?? '').toLowerCase()
  const from: Lane = label.startsWith('authorisation (headless)') ? 'psu' : 'tpp'
  const dir = origin(directoryUrl)
  if ((dir && origin(x.url) === dir) || label.includes('directory') || label.includes('software statement'))
    return { from, to: 'directory' }
  const path = x.path
  const resourcePaths = [env?.apiPaths.ais, env?.apiPaths.pis].filter((p): p is string => !!p)
  const resource = resourcePaths.length
    ? resourcePaths.some((p) => path.startsWith(p))
    : /\/open-banking\/v[\d.]+\/(aisp|pisp)/.test(path)
  return { from, to: resource ? 'rs' : 'as' }
}

function requestLine(x: ExchangeSummaryDto): string {
  let path = x.path
  // Long ids make unreadable arrows: keep their start.
  path = path.replace(/[0-9a-f]{8}-[0-9a-f-]{27,}/gi, (id) => `${id.slice(0, 8)}…`)
  return `${x.method} ${path}`
}

/** The arrows of one flow, oldest first. */
export function buildSequence(
  flow: FlowState,
  exchanges: ExchangeSummaryDto[],
  env: EnvironmentDto | undefined,
  directoryUrl: string | undefined,
): SequenceArrow[] {
  const arrows: SequenceArrow[] = exchanges
    .filter((x) => x.flowId === flow.id)
    .map((x) => {
      const { from, to } = classify(x, env, directoryUrl)
      const failed = x.errorCode !== undefined || (x.status !== undefined && x.status >= 400)
      return {
        exchangeId: x.id,
        from,
        to,
        label: requestLine(x),
        answer: x.status !== undefined ? String(x.status) : x.errorCode,
        failed,
        at: x.startedAt,
      }
    })
  const urlStep = flow.steps.find((s) => s.id === AUTH_URL_STEP)
  const capture = flow.steps.find((s) => s.id === CAPTURE_STEP)
  if (capture && capture.status !== 'idle' && capture.status !== 'skipped' && capture.startedAt) {
    const viaApp = urlStep?.summary?.includes('deeplink') ?? false
    arrows.push({
      from: 'tpp',
      to: 'psu',
      label: viaApp
        ? 'deeplink to the bank app (authorisation request)'
        : "to the bank's authorisation page (request object)",
      failed: false,
      at: capture.startedAt,
    })
    if (capture.status === 'done' || capture.status === 'failed') {
      const end = new Date(new Date(capture.startedAt).getTime() + (capture.ms ?? 0)).toISOString()
      arrows.push({
        from: 'psu',
        to: 'tpp',
        label:
          capture.status === 'done'
            ? `redirect back: ${capture.summary ?? 'code received'}`
            : 'no code (authorisation failed)',
        failed: capture.status === 'failed',
        at: end,
      })
    }
  }
  // Stable: equal times keep the PSU's arrows after the exchanges of the same moment.
  return arrows
    .map((a, i) => ({ a, i }))
    .sort((p, q) => p.a.at.localeCompare(q.a.at) || p.i - q.i)
    .map((p) => p.a)
}
