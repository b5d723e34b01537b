import { useMemo, useState } from 'react'
import type { CaptureMode } from '../../../src-main/contract/api.ts'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SelectField } from '../../components/select-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { CAPTURE_LABELS, captureModes, defaultCapture } from '../../domain/capture.ts'
import { checkPermissions, DEFAULT_AIS_PERMISSIONS } from '../../../src-main/contract/ais-permissions.ts'
import {
  DEFAULT_PAYMENT,
  paymentFieldProblems,
  paymentInitiation,
  type PaymentFields,
} from '../../domain/pis-defaults.ts'
import { PIS_SCHEMA_LIMITS } from '../../domain/pis-limits.ts'
import { useApp } from '../../store/store.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'
import { PermissionsPicker } from './permissions-picker.tsx'

const CREDITOR_SCHEMES = ['UK.OBIE.SortCodeAccountNumber', 'UK.OBIE.IBAN'].map((s) => ({ value: s, label: s }))

/** The attributes a payment field adds to its input (the keyboard it asks for, its length). */
type PayExtra = Pick<React.InputHTMLAttributes<HTMLInputElement>, 'inputMode' | 'maxLength'>

/**
 * Starts an AIS or PIS flow: environment, client, how the PSU's return is captured, and the consent itself.
 * `initial`: the environment and client chosen to begin with (a new consent in place of an expired one).
 */
export function FlowStartForm({
  kind,
  initial,
  onStarted,
}: {
  kind: 'ais' | 'pis'
  initial?: { environmentId: string; clientId: string }
  onStarted?: () => void
}) {
  const environments = useApp((s) => s.environments)
  const clients = useApp((s) => s.clients)
  const host = useApp((s) => s.host)
  const startFlow = useApp((s) => s.startFlow)
  const runAll = useApp((s) => s.runAll)
  const op = useApp((s) => s.ops[`flows.start:${kind}`])

  const [environmentId, setEnvironmentId] = useState(
    () =>
      (initial && environments.some((e) => e.id === initial.environmentId) ? initial.environmentId : undefined) ??
      environments.find((e) => clients.some((c) => c.environmentId === e.id))?.id ??
      environments[0]?.id ??
      '',
  )
  const env = environments.find((e) => e.id === environmentId)
  const envClients = useMemo(() => clients.filter((c) => c.environmentId === environmentId), [clients, environmentId])
  const [clientId, setClientId] = useState(initial?.clientId ?? '')
  // The consent's expiry counts from the environment's time (the local sandbox's clock may be ahead).
  const now = useEnvironmentNow(environmentId)
  const client = envClients.find((c) => c.clientId === clientId) ?? envClients[envClients.length - 1]
  const [capture, setCapture] = useState<CaptureMode | ''>('')
  const modes = captureModes(host, env?.kind)
  const chosenCapture = capture && modes.includes(capture) ? capture : defaultCapture(host, env?.kind)
  const [urlFrom, setUrlFrom] = useState<'request-object' | 'o3-helper'>('request-object')

  const [permissions, setPermissions] = useState<string[]>([...DEFAULT_AIS_PERMISSIONS])
  const [psuPresent, setPsuPresent] = useState(true)
  const [psuIp, setPsuIp] = useState('')
  const [fromDate, setFromDate] = useState('')
  const [toDate, setToDate] = useState('')
  const [expiresDays, setExpiresDays] = useState('')
  const [payment, setPayment] = useState<PaymentFields>(DEFAULT_PAYMENT)
  // A developer may send a payment the console would refuse, to see the bank's own answer.
  const [letBankCheck, setLetBankCheck] = useState(false)

  const payProblems = kind === 'pis' ? paymentFieldProblems(payment) : []
  const problems =
    kind === 'ais'
      ? checkPermissions(permissions)
          .filter((r) => !r.pass)
          .map((r) => r.hint ?? r.name)
      : payProblems.map((p) => `${p.path}: ${p.message}`)
  const blocking = kind === 'pis' && letBankCheck ? [] : problems
  const canStart = !!env && !!client && blocking.length === 0 && !op?.busy
  /** The field's problems as its message, each with the JSON path it fills. */
  const fieldMessage = (k: keyof PaymentFields) => {
    const mine = payProblems.filter((p) => p.field === k)
    return mine.length
      ? mine.map((p) => (
          <div key={p.message}>
            ✗ {p.message} <code className="small">{p.path}</code>
          </div>
        ))
      : undefined
  }
  const setPay = (k: keyof PaymentFields) => (value: string) => setPayment({ ...payment, [k]: value })
  /** A payment field, marked invalid while it has problems (its message). */
  const payField = (
    k: Exclude<keyof PaymentFields, 'creditorScheme'>,
    label: string,
    hint: string,
    extra: PayExtra = {},
  ) => {
    const invalid = payProblems.some((p) => p.field === k)
    return (
      <TextField
        label={label}
        hint={hint}
        message={fieldMessage(k)}
        aria-invalid={invalid}
        className={invalid ? 'invalid' : undefined}
        value={payment[k]}
        onChange={setPay(k)}
        spellCheck={false}
        {...extra}
      />
    )
  }
  const L = PIS_SCHEMA_LIMITS
  const sortCode = payment.creditorScheme === 'UK.OBIE.SortCodeAccountNumber'

  const start = async (andRun: boolean) => {
    if (!env || !client) return
    const common = {
      environmentId: env.id,
      clientId: client.clientId,
      capture: chosenCapture,
      authorisationUrlFrom: urlFrom,
    }
    const flow =
      kind === 'ais'
        ? await startFlow({
            kind: 'ais',
            ...common,
            permissions,
            psuPresent,
            ...(psuPresent && psuIp.trim() ? { psuIpAddress: psuIp.trim() } : {}),
            ...(fromDate ? { transactionFromDateTime: new Date(fromDate).toISOString() } : {}),
            ...(toDate ? { transactionToDateTime: new Date(toDate).toISOString() } : {}),
            ...(Number(expiresDays) > 0
              ? { expirationDateTime: new Date(now + Number(expiresDays) * 86_400_000).toISOString() }
              : {}),
          })
        : await startFlow({ kind: 'pis', ...common, ...paymentInitiation(payment) })
    if (!flow) return
    onStarted?.()
    if (andRun) await runAll(flow.id)
  }

  return (
    <form
      className="card flow-form"
      aria-label={kind === 'ais' ? 'New AIS flow' : 'New PIS flow'}
      onSubmit={(e) => {
        e.preventDefault()
        void start(true)
      }}
    >
      <div className="grid-2">
        <ChoiceField
          label="Environment"
          value={environmentId}
          choices={byName(environments)}
          onChange={(value) => {
            setEnvironmentId(value)
            setClientId('')
            setCapture('')
          }}
        />
        <ChoiceField
          label="Client"
          value={client?.clientId ?? ''}
          choices={envClients.map((c) => ({
            value: c.clientId,
            label: `${c.clientId} (${String(c.registration['sandbox_profile'] ?? c.authMethod)})`,
          }))}
          onChange={setClientId}
          message={
            env && !envClients.length ? 'No client is registered in this environment: register one first.' : undefined
          }
        />
        <SelectField
          label="PSU return (capture)"
          value={chosenCapture}
          options={modes.map((m) => ({ value: m, label: CAPTURE_LABELS[m] }))}
          onChange={setCapture}
        />
        <SelectField
          label="Authorisation URL from"
          hint="The sandbox's /o3 helper builds an unsigned request object (permissive clients only)."
          value={urlFrom}
          options={[
            { value: 'request-object', label: 'A request object the console signs (PS256)' },
            { value: 'o3-helper', label: "The sandbox's /o3 auth-code-url helper", disabled: !env?.apiPaths.o3 },
          ]}
          onChange={setUrlFrom}
        />
      </div>
      {kind === 'ais' ? (
        <>
          <PermissionsPicker value={permissions} onChange={setPermissions} />
          <div className="grid-2">
            <label className="checkbox">
              <input type="checkbox" checked={psuPresent} onChange={(e) => setPsuPresent(e.target.checked)} />
              <span>PSU present (sends x-fapi-customer-ip-address; no 4-in-24-hours cap)</span>
            </label>
            {psuPresent ? (
              <TextField
                label="PSU IP address"
                hint="Sent as x-fapi-customer-ip-address; required for a present PSU except on the local sandbox (127.0.0.1)"
                value={psuIp}
                onChange={setPsuIp}
                placeholder="the PSU's address, if known"
              />
            ) : (
              <p className="muted small">
                PSU absent: the bank allows 4 calls per account in 24 hours on the exempt endpoints and 90 days of
                transaction history without SCA. Each data step shows, before it runs, what its calls spend of that
                allowance and when the next access comes back; the Consents view keeps it per consent.
              </p>
            )}
            <TextField
              label="Consent expires in days (optional)"
              type="number"
              min={1}
              step={1}
              value={expiresDays}
              onChange={setExpiresDays}
            />
            <TextField label="Transactions from (optional)" type="date" value={fromDate} onChange={setFromDate} />
            <TextField label="Transactions to (optional)" type="date" value={toDate} onChange={setToDate} />
          </div>
        </>
      ) : (
        <fieldset>
          <legend>Domestic payment</legend>
          <p className="muted small">
            Checked as you type against the official v4.0 schema (OBWriteDomesticConsent4) and the bank's rules for
            domestic payments: sterling in pence, a 14-digit sort code and account number or a GB IBAN.
          </p>
          <div className="grid-3">
            {payField('amount', 'Amount', '1 to 13 digits, then at most 2 decimals for GBP', { inputMode: 'decimal' })}
            {payField('currency', 'Currency', 'GBP (domestic payments)', { maxLength: 3 })}
            {payField('localInstrument', 'Local instrument', 'UK.OBIE.FPS, UK.OBIE.BACS or UK.OBIE.CHAPS')}
            <SelectField
              label="Creditor scheme"
              message={fieldMessage('creditorScheme')}
              value={payment.creditorScheme}
              options={CREDITOR_SCHEMES}
              onChange={setPay('creditorScheme')}
            />
            {payField(
              'creditorIdentification',
              'Creditor account',
              sortCode
                ? `14 digits: sort code then account number (${payment.creditorIdentification.replace(/\D/g, '').length}/14)`
                : 'GB IBAN, e.g. GB82WEST12345698765432',
              { inputMode: sortCode ? 'numeric' : undefined },
            )}
            {payField('creditorName', 'Creditor name', `${payment.creditorName.length}/${L.creditorName.maxLength}`)}
            {payField(
              'reference',
              'Reference',
              `${payment.reference.length}/${Math.min(L.creditorReference.maxLength, L.remittanceUnstructured.maxLength)}` +
                ' (sent as the creditor reference and the unstructured remittance)',
            )}
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={letBankCheck} onChange={(e) => setLetBankCheck(e.target.checked)} />
            <span>
              Send even if the console finds problems (to see how the bank answers; it lists each error with its path on
              the consent step)
            </span>
          </label>
        </fieldset>
      )}
      {problems.length ? (
        <ul className="text-fail" aria-label="Problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {problems.length && !blocking.length ? (
        <p className="text-warn small">The console would refuse this payment; it is sent as it is because you asked.</p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={!canStart}>
          {kind === 'ais' ? 'Start AIS flow and run' : 'Start payment flow and run'}
        </button>
        <button type="button" className="secondary" disabled={!canStart} onClick={() => void start(false)}>
          Start without running
        </button>
      </div>
      <ErrorPanel error={op?.error} title="The flow did not start" />
    </form>
  )
}
