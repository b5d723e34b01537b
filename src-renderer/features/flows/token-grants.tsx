import type { FlowState, StepState } from '../../../src-main/contract/flows.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { useApp } from '../../store/store.ts'

export interface TokenGrantWords {
  grants: string[]
  methods: string[]
  refresh: boolean
  tlsClientAuth: boolean
  text: string
}

const list = (v: unknown, dflt: string[]): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : dflt

/**
 * What the bank's discovery advertises for the token endpoint, read from the flow's discovery step (with
 * OpenID's defaults where it is silent), and what the console does with it: the refresh_token grant on the
 * flow's token where advertised, and whether tls_client_auth is offered. Said, not hidden, when it is not.
 */
export function tokenGrantWords(discovery: Record<string, unknown> | undefined): TokenGrantWords {
  const grants = list(discovery?.grant_types_supported, ['authorization_code', 'implicit'])
  const methods = list(discovery?.token_endpoint_auth_methods_supported, ['client_secret_basic'])
  const refresh = grants.includes('refresh_token')
  const tlsClientAuth = methods.includes('tls_client_auth')
  const text = [
    `Discovery advertises the grants ${grants.join(', ')} and client authentication by ${methods.join(', ')}.`,
    refresh
      ? 'The refresh_token grant gets a new access token for this consent without the PSU.'
      : 'No refresh_token grant: a new access token needs the PSU to authorise again.',
    tlsClientAuth
      ? 'tls_client_auth is offered: a client registered with it authenticates by its transport certificate alone.'
      : 'tls_client_auth is not offered by this bank: clients authenticate by a signed assertion or a secret.',
  ].join(' ')
  return { grants, methods, refresh, tlsClientAuth, text }
}

/** On the code exchange's card, once done: the token grants the bank offers, and Refresh where it offers it. */
export function TokenGrants({ flow, step }: { flow: FlowState; step: StepState }) {
  const busy = useApp((s) => !!s.flowBusy[flow.id])
  const refresh = useApp((s) => s.refreshFlowToken)
  const op = useApp((s) => s.ops[`flows.refreshToken:${flow.id}`])
  if (step.id !== 'code-exchange' || step.status !== 'done') return null
  const discovery = flow.steps.find((s) => s.id === 'discovery')?.output as Record<string, unknown> | undefined
  const w = tokenGrantWords(discovery)
  const hasRefresh = !!(step.output as { refreshToken?: unknown } | undefined)?.refreshToken
  const why = flow.restored
    ? 'the flow is from an earlier console run: its tokens are gone'
    : !w.refresh
      ? 'the bank does not advertise the refresh_token grant'
      : !hasRefresh
        ? 'the bank sent no refresh token with this access token'
        : undefined
  return (
    <div className="token-grants small" role="group" aria-label="Token grants">
      <p>{w.text}</p>
      <div className="actions">
        <button
          type="button"
          className="secondary small"
          disabled={!!why || busy || op?.busy}
          onClick={() => void refresh(flow.id)}
          title={why}
        >
          {op?.busy ? 'Refreshing…' : 'Refresh the access token (refresh_token grant)'}
        </button>
        {why ? <span className="muted">Not available: {why}.</span> : null}
      </div>
      <ErrorPanel error={op?.error} title="The token was not refreshed" />
    </div>
  )
}
