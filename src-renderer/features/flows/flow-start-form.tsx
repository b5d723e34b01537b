import { useMemo, useState } from 'react'
import type { CaptureMode } from '../../../src-main/contract/api.ts'
import { byName, ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
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
import { PermissionsPicker } from './permissions-picker.tsx'

/** Starts an AIS or PIS flow: environment, client, how the PSU's return is captured, and the consent itself. */
export function FlowStartForm({ kind, onStarted }: { kind: 'ais' | 'pis'; onStarted?: () => void }) {
  const environments = useApp((s) => s.environments)
  const clients = useApp((s) => s.clients)
  const host = useApp((s) => s.host)
  const startFlow = useApp((s) => s.startFlow)
  const runAll = useApp((s) => s.runAll)
  const op = useApp((s) => s.ops[`flows.start:${kind}`])

  const [environmentId, setEnvironmentId] = useState(
    () => environments.find((e) => clients.some((c) => c.environmentId === e.id))?.id ?? environments[0]?.id ?? '',
  )
  const env = environments.find((e) => e.id === environmentId)
  const envClients = useMemo(() => clients.filter((c) => c.environmentId === environmentId), [clients, environmentId])
  const [clientId, setClientId] = useState('')
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
  const invalid = (k: keyof PaymentFields) => payProblems.some((p) => p.field === k)
  const payInput =
    (k: keyof PaymentFields, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) =>
    (id: string, d: string | undefined) => (
      <input
        id={id}
        aria-describedby={d}
        aria-invalid={invalid(k)}
        className={invalid(k) ? 'invalid' : undefined}
        value={payment[k]}
        onChange={setPay(k)}
        spellCheck={false}
        {...extra}
      />
    )
  const L = PIS_SCHEMA_LIMITS

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
              ? { expirationDateTime: new Date(Date.now() + Number(expiresDays) * 86_400_000).toISOString() }
              : {}),
          })
        : await startFlow({ kind: 'pis', ...common, ...paymentInitiation(payment) })
    if (!flow) return
    onStarted?.()
    if (andRun) await runAll(flow.id)
  }

  const setPay = (k: keyof PaymentFields) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setPayment({ ...payment, [k]: e.target.value })

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
        <Field label="PSU return (capture)">
          {(id) => (
            <select id={id} value={chosenCapture} onChange={(e) => setCapture(e.target.value as CaptureMode)}>
              {modes.map((m) => (
                <option key={m} value={m}>
                  {CAPTURE_LABELS[m]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Authorisation URL from"
          hint="The sandbox's /o3 helper builds an unsigned request object (permissive clients only)."
        >
          {(id, d) => (
            <select
              id={id}
              aria-describedby={d}
              value={urlFrom}
              onChange={(e) => setUrlFrom(e.target.value as 'request-object' | 'o3-helper')}
            >
              <option value="request-object">A request object the console signs (PS256)</option>
              <option value="o3-helper" disabled={!env?.apiPaths.o3}>
                The sandbox's /o3 auth-code-url helper
              </option>
            </select>
          )}
        </Field>
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
              <Field
                label="PSU IP address"
                hint="Sent as x-fapi-customer-ip-address; required for a present PSU except on the local sandbox (127.0.0.1)"
              >
                {(id, d) => (
                  <input
                    id={id}
                    aria-describedby={d}
                    value={psuIp}
                    onChange={(e) => setPsuIp(e.target.value)}
                    placeholder="the PSU's address, if known"
                  />
                )}
              </Field>
            ) : (
              <p className="muted small">
                PSU absent: the bank allows 4 calls per account in 24 hours on the exempt endpoints and 90 days of
                transaction history without SCA. Each data step shows, before it runs, what its calls spend of that
                allowance and when the next access comes back; the Consents view keeps it per consent.
              </p>
            )}
            <Field label="Consent expires in days (optional)">
              {(id) => (
                <input
                  id={id}
                  type="number"
                  min={1}
                  step={1}
                  value={expiresDays}
                  onChange={(e) => setExpiresDays(e.target.value)}
                />
              )}
            </Field>
            <Field label="Transactions from (optional)">
              {(id) => <input id={id} type="date" value={fromDate} onChange={(e) => setFromDate(e.target.value)} />}
            </Field>
            <Field label="Transactions to (optional)">
              {(id) => <input id={id} type="date" value={toDate} onChange={(e) => setToDate(e.target.value)} />}
            </Field>
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
            <Field
              label="Amount"
              hint="1 to 13 digits, then at most 2 decimals for GBP"
              message={fieldMessage('amount')}
            >
              {payInput('amount', { inputMode: 'decimal' })}
            </Field>
            <Field label="Currency" hint="GBP (domestic payments)" message={fieldMessage('currency')}>
              {payInput('currency', { maxLength: 3 })}
            </Field>
            <Field
              label="Local instrument"
              hint="UK.OBIE.FPS, UK.OBIE.BACS or UK.OBIE.CHAPS"
              message={fieldMessage('localInstrument')}
            >
              {payInput('localInstrument')}
            </Field>
            <Field label="Creditor scheme" message={fieldMessage('creditorScheme')}>
              {(id) => (
                <select id={id} value={payment.creditorScheme} onChange={setPay('creditorScheme')}>
                  <option value="UK.OBIE.SortCodeAccountNumber">UK.OBIE.SortCodeAccountNumber</option>
                  <option value="UK.OBIE.IBAN">UK.OBIE.IBAN</option>
                </select>
              )}
            </Field>
            <Field
              label="Creditor account"
              hint={
                payment.creditorScheme === 'UK.OBIE.SortCodeAccountNumber'
                  ? `14 digits: sort code then account number (${payment.creditorIdentification.replace(/\D/g, '').length}/14)`
                  : 'GB IBAN, e.g. GB82WEST12345698765432'
              }
              message={fieldMessage('creditorIdentification')}
            >
              {payInput('creditorIdentification', {
                inputMode: payment.creditorScheme === 'UK.OBIE.SortCodeAccountNumber' ? 'numeric' : undefined,
              })}
            </Field>
            <Field
              label="Creditor name"
              hint={`${payment.creditorName.length}/${L.creditorName.maxLength}`}
              message={fieldMessage('creditorName')}
            >
              {payInput('creditorName')}
            </Field>
            <Field
              label="Reference"
              hint={`${payment.reference.length}/${Math.min(L.creditorReference.maxLength, L.remittanceUnstructured.maxLength)} (sent as the creditor reference and the unstructured remittance)`}
              message={fieldMessage('reference')}
            >
              {payInput('reference')}
            </Field>
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
