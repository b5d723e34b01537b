import { useState } from 'react'
import type { AisFlowInput } from '../../../src-main/contract/api.ts'
import { checkPermissions, DEFAULT_AIS_PERMISSIONS } from '../../../src-main/contract/ais-permissions.ts'
import { TextField } from '../../components/text-field.tsx'
import { FlowStartShell, useFlowTarget, useStartFlow, type FlowStartInitial } from './flow-start-common.tsx'
import { PermissionsPicker } from './permissions-picker.tsx'

/** The AIS consent's own fields: permissions, the PSU's presence and address, the expiry and the dates. */
function useAisConsentFields() {
  const [permissions, setPermissions] = useState<string[]>([...DEFAULT_AIS_PERMISSIONS])
  const [psuPresent, setPsuPresent] = useState(true)
  const [psuIp, setPsuIp] = useState('')
  const [fromDate, setFromDate] = useState('')
  const [toDate, setToDate] = useState('')
  const [expiresDays, setExpiresDays] = useState('')
  return {
    permissions,
    setPermissions,
    psuPresent,
    setPsuPresent,
    psuIp,
    setPsuIp,
    fromDate,
    setFromDate,
    toDate,
    setToDate,
    expiresDays,
    setExpiresDays,
  }
}

type AisConsentFields = ReturnType<typeof useAisConsentFields>

/** The AIS part of the flow's input; the expiry counts `expiresDays` from `now` (the environment's time). */
function aisConsentInput(
  f: AisConsentFields,
  now: number,
): Omit<AisFlowInput, 'kind' | 'environmentId' | 'clientId' | 'capture' | 'authorisationUrlFrom'> {
  return {
    permissions: f.permissions,
    psuPresent: f.psuPresent,
    ...(f.psuPresent && f.psuIp.trim() ? { psuIpAddress: f.psuIp.trim() } : {}),
    ...(f.fromDate ? { transactionFromDateTime: new Date(f.fromDate).toISOString() } : {}),
    ...(f.toDate ? { transactionToDateTime: new Date(f.toDate).toISOString() } : {}),
    ...(Number(f.expiresDays) > 0
      ? { expirationDateTime: new Date(now + Number(f.expiresDays) * 86_400_000).toISOString() }
      : {}),
  }
}

/** The PSU's presence: its address when present, what the bank allows when absent. */
function PsuPresence({ f }: { f: AisConsentFields }) {
  return (
    <>
      <label className="checkbox">
        <input type="checkbox" checked={f.psuPresent} onChange={(e) => f.setPsuPresent(e.target.checked)} />
        <span>PSU present (sends x-fapi-customer-ip-address; no 4-in-24-hours cap)</span>
      </label>
      {f.psuPresent ? (
        <TextField
          label="PSU IP address"
          hint="Sent as x-fapi-customer-ip-address; required for a present PSU except on the local sandbox (127.0.0.1)"
          value={f.psuIp}
          onChange={f.setPsuIp}
          placeholder="the PSU's address, if known"
        />
      ) : (
        <p className="muted small">
          PSU absent: the bank allows 4 calls per account in 24 hours on the exempt endpoints and 90 days of transaction
          history without SCA. Each data step shows, before it runs, what its calls spend of that allowance and when the
          next access comes back; the Consents view keeps it per consent.
        </p>
      )}
    </>
  )
}

/** Starts an AIS flow: the shared fields, then the permissions, the PSU, the consent's expiry and dates. */
export function AisStartForm({ initial, onStarted }: { initial?: FlowStartInitial; onStarted?: () => void }) {
  const target = useFlowTarget(initial)
  const f = useAisConsentFields()
  const problems = checkPermissions(f.permissions)
    .filter((r) => !r.pass)
    .map((r) => r.hint ?? r.name)
  const start = useStartFlow(
    target,
    (common) => ({ kind: 'ais', ...common, ...aisConsentInput(f, target.now) }),
    onStarted,
  )
  return (
    <FlowStartShell
      kind="ais"
      target={target}
      problems={problems}
      blocking={problems}
      submitLabel="Start AIS flow and run"
      start={start}
    >
      <PermissionsPicker value={f.permissions} onChange={f.setPermissions} />
      <div className="grid-2">
        <PsuPresence f={f} />
        <TextField
          label="Consent expires in days (optional)"
          type="number"
          min={1}
          step={1}
          value={f.expiresDays}
          onChange={f.setExpiresDays}
        />
        <TextField label="Transactions from (optional)" type="date" value={f.fromDate} onChange={f.setFromDate} />
        <TextField label="Transactions to (optional)" type="date" value={f.toDate} onChange={f.setToDate} />
      </div>
    </FlowStartShell>
  )
}
