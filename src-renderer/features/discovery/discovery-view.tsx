import { useState } from 'react'
import type { DiscoveryViewDto } from '../../../src-main/contract/consents.ts'
import { Busy } from '../../components/busy.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SelectField } from '../../components/select-field.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { Code } from '../../editor/lazy.tsx'
import { toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { ExchangeLink } from '../flows/exchange-link.tsx'

function Values({ values, label }: { values: string[]; label: string }) {
  if (!values.length) return <span className="muted">not advertised</span>
  return (
    <span className="chips" aria-label={label}>
      {values.map((v) => (
        <code key={v} className="badge">
          {v}
        </code>
      ))}
    </span>
  )
}

/** Discovery laid out: issuer, endpoints, algorithms, auth methods, grant and response types, scopes, claims. */
export function DiscoveryDocument({ view }: { view: DiscoveryViewDto }) {
  return (
    <>
      <section className="card" aria-label="Discovery document">
        <h2>
          Issuer <code className="wrap">{view.issuer}</code>
        </h2>
        <p className="small muted">
          From <code className="wrap">{view.url}</code> · <ExchangeLink id={view.exchangeId} />
        </p>
        <table className="table" aria-label="Endpoints">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th>URL</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(view.endpoints).map(([k, v]) => (
              <tr key={k}>
                <td>
                  <code>{k}</code>
                </td>
                <td>
                  <code className="wrap">{v}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <KeyValue
          label="Capabilities"
          rows={[
            [
              'Token endpoint auth methods',
              <Values values={view.tokenEndpointAuthMethods} label="Token endpoint auth methods" />,
            ],
            ['Grant types', <Values values={view.grantTypes} label="Grant types" />],
            ['Response types', <Values values={view.responseTypes} label="Response types" />],
            ['Scopes', <Values values={view.scopes} label="Scopes" />],
            ['Claims', <Values values={view.claims} label="Claims" />],
          ]}
        />
        <h3>Algorithms</h3>
        <KeyValue
          label="Algorithms"
          rows={Object.entries(view.algorithms).map(([k, v]) => [k, <Values values={v} label={k} />])}
        />
      </section>
      <details className="card">
        <summary>The whole document</summary>
        <Code value={toJson(view.document)} ariaLabel="Discovery document JSON" height={420} />
      </details>
    </>
  )
}

/**
 * The discovery viewer and its capability check: what the environment uses and, with a client, what it
 * registered, against what the bank advertises; every mismatch named with its fix.
 */
export function DiscoveryView() {
  const environments = useApp((s) => s.environments)
  const clients = useApp((s) => s.clients)
  const load = useApp((s) => s.loadDiscovery)
  const [environmentId, setEnvironmentId] = useState(environments.find((e) => e.tppId)?.id ?? environments[0]?.id ?? '')
  const [clientId, setClientId] = useState('')
  const view = useApp((s) => s.discovery[environmentId])
  const op = useApp((s) => s.ops[`discovery.view:${environmentId}`])
  const envClients = clients.filter((c) => c.environmentId === environmentId)
  const failed = view?.checks.filter((c) => !c.pass) ?? []
  return (
    <div className="view">
      <header className="view-head">
        <h1>Discovery</h1>
      </header>
      <form
        className="card grid-3"
        aria-label="Discovery to read"
        onSubmit={(e) => {
          e.preventDefault()
          void load(environmentId, clientId || undefined)
        }}
      >
        <ChoiceField
          label="Environment"
          value={environmentId}
          choices={environments.map((e) => ({ value: e.id, label: e.name }))}
          onChange={(value) => {
            setEnvironmentId(value)
            setClientId('')
          }}
        />
        <SelectField
          label="Check a client's registration too"
          value={clientId}
          options={[
            { value: '', label: 'No client: the environment alone' },
            ...envClients.map((c) => ({ value: c.clientId, label: c.clientId })),
          ]}
          onChange={setClientId}
        />
        <div className="actions">
          <button type="submit" disabled={!environmentId || op?.busy}>
            Read discovery
          </button>
          {op?.busy ? <Busy label="Reading…" /> : null}
        </div>
      </form>
      <ErrorPanel error={op?.error} title="Discovery not read" />
      {view ? (
        <>
          <section className="card" aria-label="Capability check">
            <p role="status" className={failed.length ? 'text-fail' : 'text-pass'}>
              {failed.length
                ? `${failed.length} mismatch${failed.length > 1 ? 'es' : ''}: ${failed.map((c) => c.name).join(', ')}.`
                : 'The bank advertises everything the environment (and the client) uses.'}
            </p>
            <ChecksList checks={view.checks} label="Capability check" />
          </section>
          <DiscoveryDocument view={view} />
        </>
      ) : null}
    </div>
  )
}
