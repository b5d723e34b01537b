import { Busy } from '../../components/busy.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { TextField } from '../../components/text-field.tsx'
import { guideCaptureChoices } from '../../domain/capture.ts'
import { DEFAULT_PAYMENT } from '../../domain/pis-defaults.ts'
import { formatAmount } from '../../lib/format.ts'
import { flowComplete } from '../../store/flows-slice.ts'
import { useApp } from '../../store/store.ts'
import { AccountDataList } from '../data/account-data.tsx'
import { ExchangeLink } from '../flows/exchange-link.tsx'
import { FlowSteps } from '../flows/flow-steps.tsx'
import { Stage, StageAction } from './guide-stage.tsx'

const PAYMENT_TEXT = formatAmount(DEFAULT_PAYMENT.amount, DEFAULT_PAYMENT.currency)

/**
 * What opens the later stages: the environment chosen, the identity ready (on a bank, its prerequisites pass)
 * and the sandbox running; the client registered; the AIS flow complete.
 */
function useGuideGates() {
  const guide = useApp((s) => s.guide)
  const env = useApp((s) => s.environments.find((e) => e.id === guide.environmentId))
  const tppReady = useApp(
    (s) => !!guide.tppId && (guide.target === 'local' || (s.prerequisites[guide.tppId]?.every((c) => c.pass) ?? false)),
  )
  const sandboxRunning = useApp((s) => guide.target === 'bank' || !!s.info?.localSandbox)
  const client = useApp((s) => s.clients.find((c) => c.clientId === guide.clientId))
  const ais = useApp((s) => (guide.aisFlowId ? s.flows[guide.aisFlowId] : undefined))
  return {
    guide,
    env,
    client,
    ready: !!guide.environmentId && tppReady && sandboxRunning,
    aisDone: flowComplete(ais),
  }
}

/** How the test PSU approves (on the local sandbox, part of the client's registration). */
function CaptureChoice({ local }: { local: boolean }) {
  const capture = useApp((s) => s.guide.capture)
  const host = useApp((s) => s.host)
  const setCapture = useApp((s) => s.guideSetCapture)
  return (
    <fieldset className="capture-choice">
      <legend>How the test PSU approves</legend>
      {guideCaptureChoices(host, local).map(([mode, label]) => (
        <label key={mode} className="checkbox">
          <input type="radio" name="guide-capture" checked={capture === mode} onChange={() => setCapture(mode)} />{' '}
          {label}
        </label>
      ))}
      {local ? (
        <p className="muted small">
          On the local sandbox this is part of the client's registration (its sandbox_profile): changing it registers a
          new client.
        </p>
      ) : null}
    </fieldset>
  )
}

/** Stage 3: the capture chosen, then a client registered. */
function RegisterStage() {
  const { guide, env, client, ready } = useGuideGates()
  const register = useApp((s) => s.guideRegister)
  const registerOp = useApp((s) => s.ops['guide.register'])
  return (
    <Stage
      n={3}
      title="Register a client"
      state={!ready ? 'locked' : client ? 'done' : 'current'}
      explanation="Signs a registration JWT (PS256) with every claim of the bank's table 2.1 and the software statement, and posts it over mutual TLS to the DCR 3.2 endpoint; the bank answers with a client id."
    >
      <CaptureChoice local={env?.kind === 'local-sandbox'} />
      {client ? (
        <p className="small">
          Client <code data-testid="guide-client-id">{client.clientId}</code> registered ({client.authMethod}
          {client.registration['sandbox_profile'] ? `, profile ${String(client.registration['sandbox_profile'])}` : ''})
          {guide.registrationExchangeId ? (
            <>
              {' '}
              · <ExchangeLink id={guide.registrationExchangeId} />
            </>
          ) : null}
        </p>
      ) : (
        <StageAction label="Register a client" busyLabel="Registering…" busy={registerOp?.busy} run={register} />
      )}
      <ErrorPanel error={registerOp?.error} title="Registration failed" />
    </Stage>
  )
}

/** The AIS flow's account data, in short, with the way to all of it. */
function GuideAccountData({ flowId }: { flowId: string | undefined }) {
  const data = useApp((s) => (flowId ? s.accountData[flowId] : undefined))
  const dataOp = useApp((s) => (flowId ? s.ops[`ais.accountData:${flowId}`] : undefined))
  const selectFlow = useApp((s) => s.selectFlow)
  const navigate = useApp((s) => s.navigate)
  return (
    <>
      {dataOp?.busy ? <Busy label="Reading account data…" /> : null}
      <ErrorPanel error={dataOp?.error} title="Account data could not be read" />
      {data ? (
        <>
          <AccountDataList data={data} compact />
          <button
            type="button"
            className="secondary"
            onClick={() => {
              selectFlow(flowId)
              navigate('data')
            }}
          >
            See every transaction and resource in Account data
          </button>
        </>
      ) : null}
    </>
  )
}

/** Stage 4: an AIS consent authorised, and the accounts read. */
function AisStage() {
  const { guide, env, client, aisDone } = useGuideGates()
  const choose = useApp((s) => s.guideChoose)
  const runAis = useApp((s) => s.guideRunAis)
  const ais = useApp((s) => (guide.aisFlowId ? s.flows[guide.aisFlowId] : undefined))
  const aisBusy = useApp((s) => (guide.aisFlowId ? !!s.flowBusy[guide.aisFlowId] : false))
  const aisStart = useApp((s) => s.ops['flows.start:ais'])
  const aisRun = useApp((s) => (guide.aisFlowId ? s.ops[`flows.run:${guide.aisFlowId}`] : undefined))
  const data = useApp((s) => (guide.aisFlowId ? s.accountData[guide.aisFlowId] : undefined))
  return (
    <Stage
      n={4}
      title="Authorise an AIS consent and read the accounts"
      state={!client ? 'locked' : aisDone && data ? 'done' : 'current'}
      explanation="Gets a client-credentials token, creates an account access consent, sends the PSU to approve it, checks the ID token, exchanges the code for a token and reads accounts, balances and transactions."
    >
      {env && env.kind !== 'local-sandbox' ? (
        <TextField
          label="PSU's IP address"
          hint="Sent as x-fapi-customer-ip-address: with it the bank counts the calls as made with the PSU present"
          value={guide.psuIp ?? ''}
          onChange={(psuIp) => choose({ psuIp })}
          placeholder="the address the PSU browses from"
        />
      ) : null}
      {!ais || (!aisBusy && !aisDone) ? (
        <button type="button" onClick={() => void runAis()} disabled={aisStart?.busy || aisBusy}>
          {ais ? 'Start a new AIS consent' : 'Authorise an AIS consent and read data'}
        </button>
      ) : null}
      <ErrorPanel error={aisStart?.error} title="The AIS flow did not start" />
      <ErrorPanel error={aisRun?.error} title="The AIS flow stopped" />
      {ais ? <FlowSteps flow={ais} /> : null}
      <GuideAccountData flowId={guide.aisFlowId} />
    </Stage>
  )
}

/** Stage 5: a payment made, once the AIS stage is complete. */
function PaymentStage() {
  const { guide, client, aisDone } = useGuideGates()
  const runPis = useApp((s) => s.guideRunPis)
  const pis = useApp((s) => (guide.pisFlowId ? s.flows[guide.pisFlowId] : undefined))
  const pisBusy = useApp((s) => (guide.pisFlowId ? !!s.flowBusy[guide.pisFlowId] : false))
  const pisStart = useApp((s) => s.ops['flows.start:pis'])
  const pisDone = flowComplete(pis)
  return (
    <Stage
      n={5}
      title={`Make a ${PAYMENT_TEXT} payment`}
      state={!client || !aisDone ? 'locked' : pisDone ? 'done' : 'current'}
      explanation="Creates a domestic payment consent signed with x-jws-signature, has the PSU approve it, checks the funds, submits the payment and follows its status until it is final."
    >
      {!pis || (!pisBusy && !pisDone) ? (
        <button type="button" onClick={() => void runPis()} disabled={pisStart?.busy || pisBusy}>
          {pis ? 'Try the payment again' : `Make a ${PAYMENT_TEXT} payment`}
        </button>
      ) : null}
      <ErrorPanel error={pisStart?.error} title="The payment flow did not start" />
      {pis ? <FlowSteps flow={pis} /> : null}
      {pisDone ? (
        <p className="text-pass" role="status">
          Done: the payment is complete. Carry on in Consent flows, the Registration builder or the Inspector.
        </p>
      ) : null}
    </Stage>
  )
}

/** Stages 3 to 5, the same on either sandbox: a client registered, an AIS consent and its data, a payment. */
export function LaterStages() {
  return (
    <>
      <RegisterStage />
      <AisStage />
      <PaymentStage />
    </>
  )
}
