import { useEffect, useState } from 'react'
import { Busy } from '../../components/busy.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { ChoiceField } from '../../components/choice-field.tsx'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { useFollowResult } from '../../components/follow-result.ts'
import { SelectField } from '../../components/select-field.tsx'
import { TextAreaField } from '../../components/text-field.tsx'
import { Code } from '../../editor/lazy.tsx'
import type { ClaimChangeDto } from '../../../src-main/contract/api.ts'
import { toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { ClientsPanel } from '../clients/clients-panel.tsx'
import { PreflightPanel } from '../discovery/preflight-panel.tsx'
import { ExchangeLink } from '../flows/exchange-link.tsx'
import { SendButtons } from './send-buttons.tsx'
import { ClaimFields, checkFor } from './claim-fields.tsx'

const PROFILE_HINT =
  "The local sandbox's client profile: strict or permissive checks, headless (approves at once as the test PSU) " +
  "or the PSU login pages. Empty: the sandbox's default."
const PROFILES = ['', 'strict', 'strict-headless', 'permissive', 'permissive-headless']

/** The claims that fail the engine's checks in the preview. */
function useFailing() {
  const preview = useApp((s) => s.registration.preview)
  return preview?.checks.filter((c) => !c.pass) ?? []
}

/** The extra claims: the local sandbox's client profile as a choice, and any others as JSON. */
function ExtraClaimFields({ local }: { local: boolean }) {
  const extra = useApp((s) => s.registration.form?.extraClaims) ?? {}
  const update = useApp((s) => s.updateRegistrationForm)
  const profile = typeof extra['sandbox_profile'] === 'string' ? (extra['sandbox_profile'] as string) : ''
  const otherExtras = Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'sandbox_profile'))
  return (
    <>
      <h3>Extra claims</h3>
      {local ? (
        <SelectField
          label="sandbox_profile"
          hint={PROFILE_HINT}
          value={profile}
          options={PROFILES.map((p) => ({ value: p, label: p || '(default)' }))}
          onChange={(p) => update({ extraClaims: { ...otherExtras, ...(p ? { sandbox_profile: p } : {}) } })}
        />
      ) : null}
      <ExtraClaims
        value={otherExtras}
        onChange={(v) => update({ extraClaims: { ...v, ...(profile ? { sandbox_profile: profile } : {}) } })}
      />
    </>
  )
}

/** The send buttons, and whether the claims pass (checking, how many would be refused, or all pass). */
function SendBar({ environmentId, canSend }: { environmentId: string; canSend: boolean }) {
  const reg = useApp((s) => s.registration)
  const failing = useFailing()
  return (
    <div className="actions sticky-actions">
      <SendButtons canSend={canSend} claimsFail={failing.length > 0} environmentId={environmentId} />
      {reg.previewPending ? (
        <Busy label="Checking…" />
      ) : failing.length ? (
        <span className="text-fail" role="status">
          {failing.length} claim{failing.length > 1 ? 's' : ''} would be refused: fix{' '}
          {failing.map((c) => c.name).join(', ')} to send.
        </span>
      ) : reg.preview?.valid ? (
        <span className="text-pass" role="status">
          Every claim passes.
        </span>
      ) : null}
    </div>
  )
}

/** The claims of the bank spec's table 2.1 and the extra claims, checked against discovery, then sent. */
function ClaimsForm({ environmentId, local }: { environmentId: string; local: boolean }) {
  const reg = useApp((s) => s.registration)
  const update = useApp((s) => s.updateRegistrationForm)
  const send = useApp((s) => s.sendRegistration)
  const registerOp = useApp((s) => s.ops['registration.register'])
  const { form, preview } = reg
  const canSend = !!preview?.valid && !reg.previewPending && !registerOp?.busy
  if (!form) return null
  return (
    <form
      className="card builder-form"
      aria-label="Registration claims"
      onSubmit={(e) => {
        e.preventDefault()
        if (canSend) void send()
      }}
    >
      <h2>Claims (bank spec table 2.1)</h2>
      <ClaimFields form={form} checks={preview?.checks} update={update} derived={preview?.claims} />
      <ExtraClaimFields local={local} />
      <PreflightPanel environmentId={environmentId} claims={preview?.claims} />
      <SendBar environmentId={environmentId} canSend={canSend} />
      <ErrorPanel error={registerOp?.error} title="Registration failed" />
    </form>
  )
}

/** The registration JWT as the engine would send it: signed or why not, header, claims, checks. */
function RegistrationPreview() {
  const preview = useApp((s) => s.registration.preview)
  const previewOp = useApp((s) => s.ops['registration.preview'])
  const failing = useFailing()
  return (
    <section className="card builder-preview" aria-label="JWT preview">
      <h2>Preview</h2>
      <ErrorPanel error={previewOp?.error} title="Preview failed" />
      {preview ? (
        <>
          <p className={preview.jwt ? 'text-pass' : 'text-fail'} aria-label="Signature status">
            {preview.jwt
              ? `Signed ${String(preview.header.alg)} with kid ${String(preview.header.kid)}.`
              : `Not signed: ${failing.length ? `${failing.length} check${failing.length > 1 ? 's' : ''} fail` : 'no signing key'}.`}
          </p>
          <div className="muted small">Header</div>
          <Code value={toJson(preview.header)} ariaLabel="Registration JWT header" />
          <div className="muted small">Claims</div>
          <Code value={toJson(preview.claims)} ariaLabel="Registration JWT claims" height={420} />
          <ChecksList checks={preview.checks} label="Claim checks" compact />
          {preview.jwt ? <CompactJwt jwt={preview.jwt} /> : null}
        </>
      ) : (
        <p className="muted">The preview appears here.</p>
      )}
    </section>
  )
}

/** The registration builder: every claim as a field checked as you type, the JWT previewed live, then sent. */
export function RegistrationView() {
  const environments = useApp((s) => s.environments)
  const tpps = useApp((s) => s.tpps)
  const reg = useApp((s) => s.registration)
  const target = useApp((s) => s.registrationTarget)
  const defaultsOp = useApp((s) => s.ops['registration.defaults'])
  const [environmentId, setEnvironmentId] = useState(reg.environmentId ?? environments[0]?.id ?? '')
  const env = environments.find((e) => e.id === environmentId)
  const [tppId, setTppId] = useState(reg.tppId ?? env?.tppId ?? tpps[0]?.id ?? '')

  useEffect(() => {
    if (environmentId && tppId && (reg.environmentId !== environmentId || reg.tppId !== tppId))
      void target(environmentId, tppId)
  }, [environmentId, tppId, reg.environmentId, reg.tppId, target])

  const preview = reg.preview
  return (
    <div className="view">
      <header className="view-head">
        <h1>Registration builder</h1>
      </header>
      <div className="grid-2 card">
        <ChoiceField
          label="Environment"
          value={environmentId}
          choices={environments.map((e) => ({ value: e.id, label: e.name }))}
          onChange={setEnvironmentId}
        />
        <ChoiceField
          label="TPP identity"
          value={tppId}
          choices={tpps.map((t) => ({ value: t.id, label: `${t.name}${t.softwareId ? ` (${t.softwareId})` : ''}` }))}
          onChange={setTppId}
        />
      </div>
      {!environments.length || !tpps.length ? (
        <p className="muted">
          Add an environment and a TPP identity first (Environments &amp; identities), or follow the Guide.
        </p>
      ) : null}
      {defaultsOp?.busy ? <Busy label="Loading the bank's defaults…" /> : null}
      <ErrorPanel error={defaultsOp?.error} title="The form could not be prepared" />
      {reg.form ? (
        <div className="builder">
          <ClaimsForm environmentId={environmentId} local={env?.kind === 'local-sandbox'} />
          <RegistrationPreview />
        </div>
      ) : null}
      {reg.result ? <RegistrationResult /> : null}
      <ClientsPanel environmentId={environmentId} />
      {preview && checkFor(preview.checks, 'software_statement')?.pass === false ? (
        <p className="text-fail">
          The identity's software statement is not usable: import it again in Environments &amp; identities.
        </p>
      ) : null}
    </div>
  )
}

function CompactJwt({ jwt }: { jwt: string }) {
  const setToken = useApp((s) => s.setJwtToken)
  const navigate = useApp((s) => s.navigate)
  return (
    <div className="export">
      <label htmlFor="registration-jwt" className="small">
        Signed JWT (request body, application/jwt)
      </label>
      <textarea id="registration-jwt" readOnly rows={4} value={jwt} />
      <div className="actions">
        <CopyButton text={jwt} label="Copy JWT" />
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setToken(jwt)
            navigate('jwt')
          }}
        >
          Open in JWT debugger
        </button>
      </div>
    </div>
  )
}

function ExtraClaims({
  value,
  onChange,
}: {
  value: Record<string, unknown>
  onChange: (v: Record<string, unknown>) => void
}) {
  const [text, setText] = useState(Object.keys(value).length ? JSON.stringify(value, null, 2) : '')
  const [error, setError] = useState<string>()
  return (
    <TextAreaField
      label="Other extra claims (JSON object)"
      message={error}
      hint='Sent as they are, e.g. {"contacts": ["team@tpp.example"]}.'
      rows={3}
      value={text}
      spellCheck={false}
      onChange={(typed) => {
        setText(typed)
        if (!typed.trim()) {
          setError(undefined)
          onChange({})
          return
        }
        try {
          const parsed = JSON.parse(typed) as unknown
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
          setError(undefined)
          onChange(parsed as Record<string, unknown>)
        } catch (err) {
          setError(`Not a JSON object yet (${(err as Error).message}).`)
        }
      }}
    />
  )
}

function RegistrationResult() {
  const result = useApp((s) => s.registration.result)!
  // Sent by the user: the result's heading takes the focus.
  const heading = useFollowResult<HTMLHeadingElement>('registration-result')
  return (
    <section className="card" aria-label="Registration result">
      <h2 ref={heading} tabIndex={-1}>
        Registered: client <code>{result.client.clientId}</code>{' '}
        <CopyButton text={result.client.clientId} ariaLabel={`Copy client id ${result.client.clientId}`} small />
      </h2>
      <p className="small">
        Auth method {result.client.authMethod} · scope {result.client.scope} ·{' '}
        {result.client.hasSecret ? 'client secret stored encrypted' : 'no client secret'} ·{' '}
        <ExchangeLink id={result.exchangeId} />
      </p>
      <ClaimsChangedByBank changes={result.changedByBank} />
      <Code value={toJson(result.client.registration)} ariaLabel="Registration response" />
    </section>
  )
}

/** The claims sent that the bank registered otherwise or not at all: its answer is what holds. */
function ClaimsChangedByBank({ changes }: { changes: ClaimChangeDto[] }) {
  if (!changes.length) return null
  return (
    <div role="status">
      <p className="text-warn">
        The bank changed or dropped {changes.length} claim{changes.length === 1 ? '' : 's'} you sent; what it registered
        is what holds (a bank may take a claim such as client_name from the software statement):
      </p>
      <ul className="small">
        {changes.map((c) => (
          <li key={c.claim}>
            <code>{c.claim}</code>: sent <code>{JSON.stringify(c.sent)}</code>;{' '}
            {'registered' in c ? (
              <>
                the bank registered <code>{JSON.stringify(c.registered)}</code>
              </>
            ) : (
              'the bank did not register it'
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}
