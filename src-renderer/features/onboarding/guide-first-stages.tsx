import { Busy } from '../../components/busy.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { useApp } from '../../store/store.ts'
import { Stage, StageAction } from './guide-stage.tsx'

/** Stages 1 and 2 on the local sandbox: start it, then onboard a TPP in its directory. */
export function LocalStages() {
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

/** Stage 1 on the bank's sandbox: the environment chosen, with its addresses and TLS verification. */
function BankEnvironmentStage() {
  const guide = useApp((s) => s.guide)
  const environments = useApp((s) => s.environments)
  const choose = useApp((s) => s.guideChoose)
  const navigate = useApp((s) => s.navigate)
  const bankEnvs = environments.filter((e) => e.kind !== 'local-sandbox')
  const chosenEnv = bankEnvs.find((e) => e.id === guide.environmentId)
  return (
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
  )
}

/** Stage 2 on the bank's sandbox: the user's TPP identity, and its prerequisites checked. */
function BankTppStage() {
  const guide = useApp((s) => s.guide)
  const tpps = useApp((s) => s.tpps)
  const choose = useApp((s) => s.guideChoose)
  const check = useApp((s) => s.checkPrerequisites)
  const checks = useApp((s) => (guide.tppId ? s.prerequisites[guide.tppId] : undefined))
  const checkOp = useApp((s) => (guide.tppId ? s.ops[`tpps.checkPrerequisites:${guide.tppId}`] : undefined))
  const navigate = useApp((s) => s.navigate)
  const openPrerequisites = useApp((s) => s.openPrerequisites)
  const ready = !!guide.environmentId && !!guide.tppId && !!checks && checks.every((c) => c.pass)
  return (
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
  )
}

/** Stages 1 and 2 on the bank's sandbox: the environment, then the user's own TPP identity. */
export function BankStages() {
  return (
    <>
      <BankEnvironmentStage />
      <BankTppStage />
    </>
  )
}
