import { useMemo, useState, type ReactNode } from 'react'
import type { CaptureMode, FlowInput } from '../../../src-main/contract/api.ts'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SelectField } from '../../components/select-field.tsx'
import { CAPTURE_LABELS, captureModes, defaultCapture } from '../../domain/capture.ts'
import { headlessBlockingProfile } from '../../../src-main/contract/environments.ts'
import { useApp } from '../../store/store.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'

/** The environment and client a new flow begins with (a new consent in place of an expired one). */
export type FlowStartInitial = { environmentId: string; clientId: string }

/** Where the PSU is sent to authorise: a request object the console signs, or the sandbox's /o3 helper. */
type UrlFrom = 'request-object' | 'o3-helper'

/** What every flow's input shares: the environment, the client, the capture and the authorisation URL's source. */
export type FlowTargetInput = Pick<FlowInput, 'environmentId' | 'clientId' | 'capture'> & {
  authorisationUrlFrom: UrlFrom
}

/** The first environment: the one asked for, else the first with a client, else the first. */
function firstEnvironmentId(
  environments: ReadonlyArray<{ id: string }>,
  clients: ReadonlyArray<{ environmentId: string }>,
  initial: FlowStartInitial | undefined,
): string {
  return (
    (initial && environments.some((e) => e.id === initial.environmentId) ? initial.environmentId : undefined) ??
    environments.find((e) => clients.some((c) => c.environmentId === e.id))?.id ??
    environments[0]?.id ??
    ''
  )
}

/**
 * The part every flow form shares: the environment, the client (the last of the environment's unless one is
 * chosen), how the PSU's return is captured and where the authorisation URL comes from. `now` is the
 * environment's time (the local sandbox's clock may be ahead).
 */
export function useFlowTarget(initial: FlowStartInitial | undefined) {
  const environments = useApp((s) => s.environments)
  const clients = useApp((s) => s.clients)
  const host = useApp((s) => s.host)
  const [environmentId, setEnvironmentId] = useState(() => firstEnvironmentId(environments, clients, initial))
  const env = environments.find((e) => e.id === environmentId)
  const envClients = useMemo(() => clients.filter((c) => c.environmentId === environmentId), [clients, environmentId])
  const [clientId, setClientId] = useState(initial?.clientId ?? '')
  const now = useEnvironmentNow(environmentId)
  const client = envClients.find((c) => c.clientId === clientId) ?? envClients[envClients.length - 1]
  const [capture, setCapture] = useState<CaptureMode | ''>('')
  const modes = captureModes(host, env?.kind)
  // A local sandbox client registered for the login page cannot authorise headless: offered, but not to choose.
  const headlessBlockedBy = env && client ? headlessBlockingProfile(env.kind, client) : undefined
  const usable = (m: CaptureMode) => modes.includes(m) && !(m === 'headless' && headlessBlockedBy)
  const chosenCapture = capture && usable(capture) ? capture : defaultCapture(host, env?.kind, !headlessBlockedBy)
  const [urlFrom, setUrlFrom] = useState<UrlFrom>('request-object')
  const chooseEnvironment = (value: string) => {
    setEnvironmentId(value)
    setClientId('')
    setCapture('')
  }
  /** The shared part of the flow's input, once an environment and a client are chosen. */
  const input: FlowTargetInput | undefined =
    env && client
      ? { environmentId: env.id, clientId: client.clientId, capture: chosenCapture, authorisationUrlFrom: urlFrom }
      : undefined
  return {
    environments,
    environmentId,
    env,
    envClients,
    client,
    now,
    modes,
    headlessBlockedBy,
    chosenCapture,
    urlFrom,
    input,
    chooseEnvironment,
    setClientId,
    setCapture,
    setUrlFrom,
  }
}

export type FlowTarget = ReturnType<typeof useFlowTarget>

/** The environment, client, capture and authorisation URL fields. */
export function FlowTargetFields({ target }: { target: FlowTarget }) {
  const { env, envClients, client } = target
  return (
    <div className="grid-2">
      <ChoiceField
        label="Environment"
        value={target.environmentId}
        choices={byName(target.environments)}
        onChange={target.chooseEnvironment}
      />
      <ChoiceField
        label="Client"
        value={client?.clientId ?? ''}
        choices={envClients.map((c) => ({
          value: c.clientId,
          label: `${c.clientId} (${String(c.registration['sandbox_profile'] ?? c.authMethod)})`,
        }))}
        onChange={target.setClientId}
        message={
          env && !envClients.length ? 'No client is registered in this environment: register one first.' : undefined
        }
      />
      <SelectField
        label="PSU return (capture)"
        hint={
          target.headlessBlockedBy
            ? `No headless run for this client: its sandbox_profile "${target.headlessBlockedBy}" sends the PSU to the login page (a client registered with "${target.headlessBlockedBy}-headless" can).`
            : undefined
        }
        value={target.chosenCapture}
        options={target.modes.map((m) =>
          m === 'headless' && target.headlessBlockedBy
            ? {
                value: m,
                label: `Headless: not for this client (sandbox_profile "${target.headlessBlockedBy}" sends the PSU to the login page)`,
                disabled: true,
              }
            : { value: m, label: CAPTURE_LABELS[m] },
        )}
        onChange={target.setCapture}
      />
      <SelectField
        label="Authorisation URL from"
        hint="The sandbox's /o3 helper builds an unsigned request object (permissive clients only)."
        value={target.urlFrom}
        options={[
          { value: 'request-object', label: 'A request object the console signs (PS256)' },
          { value: 'o3-helper', label: "The sandbox's /o3 auth-code-url helper", disabled: !env?.apiPaths.o3 },
        ]}
        onChange={target.setUrlFrom}
      />
    </div>
  )
}

/**
 * Starts the flow `build` makes from the shared part of the input, then, when asked, runs all its steps.
 * `onStarted` is told once the flow exists.
 */
export function useStartFlow(target: FlowTarget, build: (input: FlowTargetInput) => FlowInput, onStarted?: () => void) {
  const startFlow = useApp((s) => s.startFlow)
  const runAll = useApp((s) => s.runAll)
  return async (andRun: boolean) => {
    if (!target.input) return
    const flow = await startFlow(build(target.input))
    if (!flow) return
    onStarted?.()
    if (andRun) await runAll(flow.id)
  }
}

/**
 * The form around a flow's fields: the shared fields first, then the flow's own, its problems and a notice
 * about them, the two start buttons and the start's error. Only `blocking` problems keep the flow from starting.
 */
export function FlowStartShell({
  kind,
  target,
  problems,
  blocking,
  notice,
  submitLabel,
  start,
  children,
}: {
  kind: 'ais' | 'pis'
  target: FlowTarget
  problems: string[]
  blocking: string[]
  notice?: ReactNode
  submitLabel: string
  start: (andRun: boolean) => Promise<void>
  children: ReactNode
}) {
  const op = useApp((s) => s.ops[`flows.start:${kind}`])
  const canStart = !!target.input && blocking.length === 0 && !op?.busy
  return (
    <form
      className="card flow-form"
      aria-label={kind === 'ais' ? 'New AIS flow' : 'New PIS flow'}
      onSubmit={(e) => {
        e.preventDefault()
        void start(true)
      }}
    >
      <FlowTargetFields target={target} />
      {children}
      {problems.length ? (
        <ul className="text-fail" aria-label="Problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {notice}
      <div className="actions">
        <button type="submit" disabled={!canStart}>
          {submitLabel}
        </button>
        <button type="button" className="secondary" disabled={!canStart} onClick={() => void start(false)}>
          Start without running
        </button>
      </div>
      <ErrorPanel error={op?.error} title="The flow did not start" />
    </form>
  )
}
