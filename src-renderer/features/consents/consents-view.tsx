import { useEffect, useMemo, useState } from 'react'
import type { ConsentRecordDto } from '../../../src-main/contract/consents.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SelectField } from '../../components/select-field.tsx'
import { useApp } from '../../store/store.ts'
import { ConsentCard } from './consent-card.tsx'

/**
 * Every consent this console created, per client (kept in the console's state file, so the list survives
 * restarts and the command line sees the same): read each at the bank, revoke account access consents,
 * and see when each expires, its last SCA and its PSU-absent allowance.
 */
export function ConsentsView() {
  const consents = useApp((s) => s.consents)
  const load = useApp((s) => s.loadConsents)
  const op = useApp((s) => s.ops['consents.list'])
  const environments = useApp((s) => s.environments)
  const [clientId, setClientId] = useState('')
  useEffect(() => {
    void load()
  }, [load])
  const groups = useMemo(() => {
    const by = new Map<string, ConsentRecordDto[]>()
    for (const c of consents)
      if (!clientId || c.clientId === clientId) by.set(c.clientId, [...(by.get(c.clientId) ?? []), c])
    return [...by.entries()]
  }, [consents, clientId])
  const clientIds = [...new Set(consents.map((c) => c.clientId))]
  return (
    <div className="view">
      <header className="view-head">
        <h1>Consents</h1>
        <div className="actions">
          <button type="button" className="secondary" disabled={op?.busy} onClick={() => void load()}>
            {op?.busy ? 'Loading…' : 'Reload the list'}
          </button>
        </div>
      </header>
      <p className="muted small">
        The consents this console created, per client, newest first, with the status the bank last gave. "Read from the
        bank" sends GET with a client-credentials token; "Revoke" sends DELETE (account access consents only: v4.0 has
        no DELETE for payment consents).
      </p>
      <ErrorPanel error={op?.error} title="The consents could not be listed" />
      {clientIds.length > 1 ? (
        <SelectField
          label="Client"
          value={clientId}
          options={[{ value: '', label: 'Every client' }, ...clientIds.map((c) => ({ value: c, label: c }))]}
          onChange={setClientId}
        />
      ) : null}
      {!consents.length && !op?.busy ? (
        <p className="muted">No consent yet: a consent flow creates one (Consent flows).</p>
      ) : null}
      {groups.map(([client, list]) => {
        const env = environments.find((e) => e.id === list[0]!.environmentId)
        return (
          <section key={client} aria-label={`Consents of client ${client}`}>
            <h2>
              Client <code>{client}</code>{' '}
              <span className="muted small">
                {env?.name ?? list[0]!.environmentId} · {list.length} consent{list.length === 1 ? '' : 's'}
              </span>
            </h2>
            {list.map((c) => (
              <ConsentCard key={c.consentId} consent={c} />
            ))}
          </section>
        )
      })}
    </div>
  )
}
