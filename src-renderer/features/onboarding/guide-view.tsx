import { Busy } from '../../components/busy.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
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
 * The first screen of a new install: from nothing to a registered client, an authorised AIS consent with
 * the accounts on screen, and a completed payment, each step explained, each exchange one click away.
 */
export function GuideView() {
  const guide = useApp((s) => s.guide)
  const setTarget = useApp((s) => s.guideSetTarget)
  return (
    <div className="view guide">
      <header className="view-head">
        <h1>Guided sandbox onboarding</h1>
      </header>
      <p className="lead">
        Five steps from nothing to a payment. Each step says what it does; every HTTP exchange it makes opens in the
        inspector with one click.
      </p>
      <fieldset className="card target">
        <legend>Where to onboard</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="guide-target"
            checked={guide.target === 'local'}
            onChange={() => setTarget('local')}
          />{' '}
          The local sandbox (built in, offline, one click per step)
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="guide-target"
            checked={guide.target === 'bank'}
            onChange={() => setTarget('bank')}
          />{' '}
          The bank's sandbox, with my own TPP identity
        </label>
      </fieldset>
      {guide.target === 'local' ? <LocalStages /> : <BankStages />}
      <LaterStages />
    </div>
  )
}

function LocalStages() {
  const guide = useApp((s) => s.guide)
  const env = useApp((s) => s.environments.find((e) => e.id === guide.environmentId))
  const info = useApp((s) => s.info)
  const tpp = useApp((s) => s.tpps.find((t) => t.id === guide.tppId))
  const start = useApp((s) => s.guideStartLocal)
  const onboard = useApp((s) => s.guideOnboardTpp)
  const startOp = useApp((s) => s.ops['environments.startLocalSandbox'])
  const onboardOp = useApp((s) => s.ops['tpps.onboardLocal'])
  const running = !!env && !!info?.localSandbox
  return (
    <>
      <Stage
        n={1}
        title="Start the local sandbox"
        state={running ? 'done' : 'current'}
        explanation="Starts the bank's local sandbox on 127.0.0.1: a directory, an authorisation server and the AIS and PIS APIs over mutual TLS, with three test PSUs."
      >
        {running ? (
          <p className="small">
            Running: <code>{info?.localSandbox?.baseUrl}</code> (resources), <code>{info?.localSandbox?.authUrl}</code>{' '}
            (authorisation).
          </p>
        ) : (
          <StageAction label="Start the local sandbox" busyLabel="Starting…" busy={startOp?.busy} run={start} />
        )}
        <ErrorPanel error={startOp?.error} title="The sandbox did not start" />
      </Stage>
      <Stage
        n={2}
        title="Get a TPP identity"
        state={!running ? 'locked' : tpp ? 'done' : 'current'}
        explanation="Onboards a TPP in the local directory: an organisation, a software statement (SSA), a transport certificate for mutual TLS and a PS256 signing key, issued by the sandbox's own CA."
      >
        {tpp ? (
          <p className="small">
            Identity <strong>{tpp.name}</strong>: organisation <code>{tpp.orgId}</code>, software{' '}
            <code>{tpp.softwareId}</code>
            {tpp.transport?.certificate ? (
              <>
                , transport certificate <code>{tpp.transport.certificate.subjectDn}</code>
              </>
            ) : null}
            .
          </p>
        ) : (
          <StageAction
            label="Get a starter kit from the local directory"
            busyLabel="Onboarding…"
            busy={onboardOp?.busy}
            run={onboard}
          />
        )}
        <ErrorPanel error={onboardOp?.error} title="No identity" />
      </Stage>
    </>
  )
}

function BankStages() {
  const guide = useApp((s) => s.guide)
  const environments = useApp((s) => s.environments)
  const tpps = useApp((s) => s.tpps)
  const choose = useApp((s) => s.guideChoose)
  const check = useApp((s) => s.checkPrerequisites)
  const checks = useApp((s) => (guide.tppId ? s.prerequisites[guide.tppId] : undefined))
  const checkOp = useApp((s) => (guide.tppId ? s.ops[`tpps.checkPrerequisites:${guide.tppId}`] : undefined))
  const navigate = useApp((s) => s.navigate)
  const openPrerequisites = useApp((s) => s.openPrerequisites)
  const bankEnvs = environments.filter((e) => e.kind !== 'local-sandbox')
  const chosenEnv = bankEnvs.find((e) => e.id === guide.environmentId)
  const ready = !!guide.environmentId && !!guide.tppId && !!checks && checks.every((c) => c.pass)
  return (
    <>
      <Stage
        n={1}
        title="Choose the environment"
        state={guide.environmentId ? 'done' : 'current'}
        explanation={
          chosenEnv
            ? `The bank's sandbox at ${chosenEnv.baseUrl || '(no resource server address yet)'} (resources) and ${chosenEnv.authUrl || '(no authorisation server address yet)'} (authorisation), with TLS verification ${chosenEnv.tlsVerification === 'off' ? 'off as its spec says' : chosenEnv.tlsVerification === 'exact-ca' ? 'against its CA bundle' : 'against the system CAs'}.`
            : "The bank's sandbox: its resource server and authorisation server addresses, with TLS verification off as its spec says."
        }
      >
        {bankEnvs.length ? (
          <ChoiceField
            label="Environment"
            value={guide.environmentId ?? ''}
            choices={byName(bankEnvs)}
            onChange={(environmentId) => choose({ environmentId })}
          />
        ) : (
          <p>
            No bank environment yet.{' '}
            <button type="button" className="link" onClick={() => navigate('environments')}>
              Add the bank's sandbox
            </button>{' '}
            with its addresses.
          </p>
        )}
      </Stage>
      <Stage
        n={2}
        title="Choose your TPP identity"
        state={!guide.environmentId ? 'locked' : ready ? 'done' : 'current'}
        explanation="Your organisation's software statement, transport certificate and key, signing key and kid, and the ecosystem's CAs; the checklist says what is missing."
      >
        {tpps.length ? (
          <ChoiceField
            label="TPP identity"
            value={guide.tppId ?? ''}
            choices={byName(tpps)}
            onChange={(tppId) => {
              choose({ tppId })
              void check(tppId)
            }}
          />
        ) : (
          <p>
            No identity yet.{' '}
            <button type="button" className="link" onClick={() => navigate('environments')}>
              Create one and import your certificates
            </button>
            .
          </p>
        )}
        {checkOp?.busy ? <Busy label="Checking prerequisites…" /> : null}
        <ErrorPanel error={checkOp?.error} title="Prerequisites not checked" />
        {checks ? <ChecksList checks={checks} label="Prerequisites" /> : null}
        {checks && guide.tppId ? (
          <p className="small">
            <button type="button" className="link" onClick={() => openPrerequisites(guide.tppId!, guide.environmentId)}>
              Check against the directory too
            </button>{' '}
            (the SSA's signature and kid, the organisation, the certificate's subject against the SSA).
          </p>
        ) : null}
      </Stage>
    </>
  )
}

function LaterStages() {
  const guide = useApp((s) => s.guide)
  const host = useApp((s) => s.host)
  const env = useApp((s) => s.environments.find((e) => e.id === guide.environmentId))
  const tppReady = useApp(
    (s) => !!guide.tppId && (guide.target === 'local' || (s.prerequisites[guide.tppId]?.every((c) => c.pass) ?? false)),
  )
  const sandboxRunning = useApp((s) => guide.target === 'bank' || !!s.info?.localSandbox)
  const client = useApp((s) => s.clients.find((c) => c.clientId === guide.clientId))
  const setCapture = useApp((s) => s.guideSetCapture)
  const choose = useApp((s) => s.guideChoose)
  const register = useApp((s) => s.guideRegister)
  const registerOp = useApp((s) => s.ops['guide.register'])
  const runAis = useApp((s) => s.guideRunAis)
  const runPis = useApp((s) => s.guideRunPis)
  const ais = useApp((s) => (guide.aisFlowId ? s.flows[guide.aisFlowId] : undefined))
  const pis = useApp((s) => (guide.pisFlowId ? s.flows[guide.pisFlowId] : undefined))
  const aisBusy = useApp((s) => (guide.aisFlowId ? !!s.flowBusy[guide.aisFlowId] : false))
  const pisBusy = useApp((s) => (guide.pisFlowId ? !!s.flowBusy[guide.pisFlowId] : false))
  const aisStart = useApp((s) => s.ops['flows.start:ais'])
  const pisStart = useApp((s) => s.ops['flows.start:pis'])
  const aisRun = useApp((s) => (guide.aisFlowId ? s.ops[`flows.run:${guide.aisFlowId}`] : undefined))
  const data = useApp((s) => (guide.aisFlowId ? s.accountData[guide.aisFlowId] : undefined))
  const dataOp = useApp((s) => (guide.aisFlowId ? s.ops[`ais.accountData:${guide.aisFlowId}`] : undefined))
  const selectFlow = useApp((s) => s.selectFlow)
  const navigate = useApp((s) => s.navigate)
  const local = env?.kind === 'local-sandbox'
  const ready = !!guide.environmentId && tppReady && sandboxRunning
  const aisDone = flowComplete(ais)
  const pisDone = flowComplete(pis)
  return (
    <>
      <Stage
        n={3}
        title="Register a client"
        state={!ready ? 'locked' : client ? 'done' : 'current'}
        explanation="Signs a registration JWT (PS256) with every claim of the bank's table 2.1 and the software statement, and posts it over mutual TLS to the DCR 3.2 endpoint; the bank answers with a client id."
      >
        <fieldset className="capture-choice">
          <legend>How the test PSU approves</legend>
          {guideCaptureChoices(host, local).map(([mode, label]) => (
            <label key={mode} className="checkbox">
              <input
                type="radio"
                name="guide-capture"
                checked={guide.capture === mode}
                onChange={() => setCapture(mode)}
              />{' '}
              {label}
            </label>
          ))}
          {local ? (
            <p className="muted small">
              On the local sandbox this is part of the client's registration (its sandbox_profile): changing it
              registers a new client.
            </p>
          ) : null}
        </fieldset>
        {client ? (
          <p className="small">
            Client <code data-testid="guide-client-id">{client.clientId}</code> registered ({client.authMethod}
            {client.registration['sandbox_profile']
              ? `, profile ${String(client.registration['sandbox_profile'])}`
              : ''}
            )
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
        {dataOp?.busy ? <Busy label="Reading account data…" /> : null}
        <ErrorPanel error={dataOp?.error} title="Account data could not be read" />
        {data ? (
          <>
            <AccountDataList data={data} compact />
            <button
              type="button"
              className="secondary"
              onClick={() => {
                selectFlow(guide.aisFlowId)
                navigate('data')
              }}
            >
              See every transaction and resource in Account data
            </button>
          </>
        ) : null}
      </Stage>
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
    </>
  )
}
