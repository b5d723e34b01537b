import { useState } from 'react'
import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { useApp } from '../../store/store.ts'
import { AddressTable } from './address-table.tsx'
import { EnvironmentForm } from './environment-form.tsx'
import { PostmanImportForm } from './postman-import-form.tsx'
import { CertificateInspector, NewTppForm, TppPanel } from './tpp-panel.tsx'
import { useConfirm } from '../../components/confirm-prompt.tsx'

const KIND_LABELS = {
  'local-sandbox': 'Local sandbox',
  'bank-sandbox': 'Bank sandbox',
  production: 'Production',
} as const

function EnvironmentCard({ env, onEdit }: { env: EnvironmentDto; onEdit: () => void }) {
  const [ask, prompt] = useConfirm()
  const remove = useApp((s) => s.removeEnvironment)
  const op = useApp((s) => s.ops[`environments.remove:${env.id}`])
  const tpp = useApp((s) => s.tpps.find((t) => t.id === env.tppId))
  return (
    <article className="card" aria-label={`Environment ${env.name}`}>
      <header className="view-head">
        <h2>
          {env.name} <span className="muted small">{KIND_LABELS[env.kind]}</span>
        </h2>
        <div className="actions">
          <button type="button" className="secondary small" onClick={onEdit}>
            Edit
          </button>
          {!env.builtIn ? (
            <button
              type="button"
              className="danger small"
              onClick={async () => {
                const yes = await ask({
                  label: `Confirm removing environment ${env.name}`,
                  message: `Remove the environment "${env.name}"?`,
                  confirmLabel: 'Remove it',
                  danger: true,
                })
                if (yes) void remove(env.id)
              }}
            >
              Remove
            </button>
          ) : null}
        </div>
      </header>
      <AddressTable env={env} label={`Addresses of ${env.name}`} />
      <KeyValue
        rows={[
          [
            'TLS verification',
            env.tlsVerification === 'off' ? (
              <span className="text-warn">off (server certificate not verified)</span>
            ) : env.tlsVerification === 'exact-ca' ? (
              'exact CA bundle'
            ) : (
              'system CAs'
            ),
          ],
          ['Auth methods', env.allowedAuthMethods.join(', ')],
          ['TPP identity', tpp?.name],
        ]}
      />
      {prompt}
      <ErrorPanel error={op?.error} title="Not removed" />
    </article>
  )
}

/** The environments: start the local sandbox, add one or import it from Postman, each one's card. */
function EnvironmentsSection() {
  const environments = useApp((s) => s.environments)
  const startLocal = useApp((s) => s.startLocalSandbox)
  const startOp = useApp((s) => s.ops['environments.startLocalSandbox'])
  const running = useApp((s) => !!s.info?.localSandbox)
  const [editing, setEditing] = useState<EnvironmentDto | 'new' | undefined>()
  const [postman, setPostman] = useState(false)
  return (
    <>
      <header className="view-head">
        <h1>Environments</h1>
        <div className="actions">
          {running ? (
            <span className="badge badge-done">Local sandbox running</span>
          ) : (
            <button type="button" onClick={() => void startLocal()} disabled={startOp?.busy}>
              {startOp?.busy ? 'Starting…' : 'Start the local sandbox'}
            </button>
          )}
          <button type="button" className="secondary" onClick={() => setEditing('new')}>
            New environment
          </button>
          <button type="button" className="secondary" onClick={() => setPostman(true)}>
            Import from Postman
          </button>
        </div>
      </header>
      <ErrorPanel error={startOp?.error} title="The local sandbox did not start" />
      {postman ? <PostmanImportForm onDone={() => setPostman(false)} /> : null}
      {editing ? (
        <EnvironmentForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={editing === 'new' ? undefined : editing}
          onDone={() => setEditing(undefined)}
        />
      ) : null}
      <div className="cards">
        {environments.map((e) => (
          <EnvironmentCard key={e.id} env={e} onEdit={() => setEditing(e)} />
        ))}
      </div>
      {!environments.length ? (
        <p className="muted">No environment yet: start the local sandbox, or add the bank's sandbox.</p>
      ) : null}
    </>
  )
}

/** The TPP identities: a new one, a tab for each, the chosen one's panel. */
function TppIdentitiesSection() {
  const tpps = useApp((s) => s.tpps)
  const [tppId, setTppId] = useState<string | undefined>(tpps[0]?.id)
  const [newTpp, setNewTpp] = useState(false)
  const tpp = tpps.find((t) => t.id === tppId) ?? tpps[0]
  return (
    <>
      <header className="view-head">
        <h2>TPP identities</h2>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setNewTpp(true)}>
            New identity
          </button>
        </div>
      </header>
      {newTpp ? (
        <NewTppForm
          onDone={(id) => {
            setNewTpp(false)
            if (id) setTppId(id)
          }}
        />
      ) : null}
      {tpps.length ? (
        <div className="tabs" role="tablist" aria-label="TPP identities">
          {tpps.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              className="tab"
              aria-selected={t.id === tpp?.id}
              onClick={() => setTppId(t.id)}
            >
              {t.name}
            </button>
          ))}
        </div>
      ) : (
        <p className="muted">
          No TPP identity yet. On the local sandbox the Guide gets one from its directory in one click.
        </p>
      )}
      {tpp ? <TppPanel key={tpp.id} tpp={tpp} /> : null}
    </>
  )
}

/** Environments (where the console talks to) and TPP identities (who it is there). */
export function EnvironmentsView() {
  return (
    <div className="view">
      <EnvironmentsSection />
      <TppIdentitiesSection />
      <CertificateInspector />
    </div>
  )
}
