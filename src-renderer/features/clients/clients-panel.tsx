import { useEffect, useState } from 'react'
import type { ClientDto } from '../../../src-main/contract/environments.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { formatDate } from '../../lib/format.ts'
import type { OpState } from '../../store/ops.ts'
import { useApp } from '../../store/store.ts'
import { ConformanceReport } from '../sandbox/conformance-report.tsx'
import { useConfirm } from '../../components/confirm-prompt.tsx'

type ClientOp = OpState | undefined

/** The client's id with its copy button, and the badge when it is the environment's current client. */
function ClientIdCell({ client: c, current }: { client: ClientDto; current: boolean }) {
  return (
    <td>
      <code>{c.clientId}</code> <CopyButton text={c.clientId} ariaLabel={`Copy client id ${c.clientId}`} small />
      {current ? (
        <>
          {' '}
          <span className="badge badge-pass" aria-label={`Client ${c.clientId} is current`}>
            current
          </span>
        </>
      ) : null}
    </td>
  )
}

/** Deletes the client at the bank once confirmed; a deleted current client leaves the environment without one. */
function DeleteClientButton({
  client: c,
  current,
  busy,
  ask,
}: {
  client: ClientDto
  current: boolean
  busy: boolean | undefined
  ask: ReturnType<typeof useConfirm>[0]
}) {
  const remove = useApp((s) => s.deleteClient)
  const loadCurrent = useApp((s) => s.loadCurrentClient)
  return (
    <button
      type="button"
      className="danger small"
      disabled={busy}
      onClick={async () => {
        const yes = await ask({
          label: `Confirm deleting client ${c.clientId}`,
          message: `Delete client ${c.clientId} at the bank?`,
          confirmLabel: 'Delete it',
          danger: true,
        })
        if (!yes) return
        // The main side forgets a deleted current client; read which one is current now.
        if ((await remove(c.clientId)) && current) await loadCurrent(c.environmentId)
      }}
      aria-label={`Delete client ${c.clientId}`}
    >
      Delete
    </button>
  )
}

/** The row's buttons: make current, read, update and delete at the bank, and the sandbox's report toggle. */
function ClientActions({
  client: c,
  canUpdate,
  current,
  local,
  op,
  currentOp,
  showReport,
  setShowReport,
  ask,
}: {
  client: ClientDto
  canUpdate: boolean
  current: boolean
  local: boolean
  op: ClientOp
  currentOp: ClientOp
  showReport: boolean
  setShowReport: (show: boolean) => void
  ask: ReturnType<typeof useConfirm>[0]
}) {
  const read = useApp((s) => s.readClient)
  const update = useApp((s) => s.updateClient)
  const setCurrent = useApp((s) => s.setCurrentClient)
  return (
    <div className="actions">
      {!current ? (
        <button
          type="button"
          className="secondary small"
          disabled={currentOp?.busy}
          onClick={() => void setCurrent(c.environmentId, c.clientId)}
          aria-label={`Make client ${c.clientId} current`}
        >
          Make current
        </button>
      ) : null}
      <button
        type="button"
        className="secondary small"
        disabled={op?.busy}
        onClick={() => void read(c.clientId)}
        aria-label={`Read client ${c.clientId} at the bank`}
      >
        Read
      </button>
      <button
        type="button"
        className="secondary small"
        disabled={op?.busy || !canUpdate}
        onClick={() => void update(c.clientId)}
        aria-label={`Update client ${c.clientId} with the form`}
        title="Sends the claims of the form as this client's new registration (PUT)"
      >
        Update
      </button>
      <DeleteClientButton client={c} current={current} busy={op?.busy} ask={ask} />
      {local ? (
        <button
          type="button"
          className="secondary small"
          aria-pressed={showReport}
          onClick={() => setShowReport(!showReport)}
          aria-label={`Conformance report of client ${c.clientId}`}
        >
          Report
        </button>
      ) : null}
    </div>
  )
}

function ClientRow({ client: c, canUpdate, current }: { client: ClientDto; canUpdate: boolean; current: boolean }) {
  const [ask, prompt] = useConfirm()
  const op = useApp((s) => s.ops[`registration.manage:${c.clientId}`])
  const currentOp = useApp((s) => s.ops[`clients.setCurrent:${c.clientId}`])
  // The local sandbox keeps a conformance report per client: what the sandbox saw this client do.
  const local = useApp((s) => s.environments.find((e) => e.id === c.environmentId)?.kind === 'local-sandbox')
  const [showReport, setShowReport] = useState(false)
  return (
    <>
      <tr data-client={c.clientId} aria-current={current ? 'true' : undefined}>
        <ClientIdCell client={c} current={current} />
        <td>{c.authMethod}</td>
        <td>{c.scope}</td>
        <td>{String(c.registration['sandbox_profile'] ?? '–')}</td>
        <td>{formatDate(c.registeredAt)}</td>
        <td>
          <ClientActions
            client={c}
            canUpdate={canUpdate}
            current={current}
            local={local}
            op={op}
            currentOp={currentOp}
            showReport={showReport}
            setShowReport={setShowReport}
            ask={ask}
          />
        </td>
      </tr>
      {op?.error || currentOp?.error ? (
        <tr>
          <td colSpan={6}>
            <ErrorPanel error={op?.error ?? currentOp?.error} title={`Client ${c.clientId}`} />
          </td>
        </tr>
      ) : null}
      {local && showReport ? (
        <tr>
          <td colSpan={6}>
            <ConformanceReport clientId={c.clientId} />
          </td>
        </tr>
      ) : null}
      {prompt ? (
        <tr>
          <td colSpan={6}>{prompt}</td>
        </tr>
      ) : null}
    </>
  )
}

/**
 * The clients registered in an environment, managed at the bank with their registration access token: GET
 * (read), PUT (update with the builder's claims), DELETE; several per environment, one marked current
 * (the one the CLI and the flows use when none is named).
 */
export function ClientsPanel({ environmentId }: { environmentId: string }) {
  const all = useApp((s) => s.clients)
  const canUpdate = useApp((s) => !!s.registration.preview?.valid)
  const current = useApp((s) => s.currentClients[environmentId])
  const loadCurrent = useApp((s) => s.loadCurrentClient)
  const clients = all.filter((c) => !environmentId || c.environmentId === environmentId)
  const count = clients.length
  useEffect(() => {
    if (environmentId && count) void loadCurrent(environmentId)
  }, [environmentId, count, loadCurrent])
  if (!clients.length) return null
  return (
    <section className="card" aria-label="Clients of the environment">
      <h2>Registered clients</h2>
      {!current ? (
        <p className="muted small">
          No client is marked current in this environment: the CLI needs --client until one is.
        </p>
      ) : null}
      <table className="table" aria-label="Registered clients">
        <thead>
          <tr>
            <th>Client id</th>
            <th>Auth method</th>
            <th>Scope</th>
            <th>Profile</th>
            <th>Registered</th>
            <th>At the bank</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <ClientRow key={c.clientId} client={c} canUpdate={canUpdate} current={c.clientId === current} />
          ))}
        </tbody>
      </table>
    </section>
  )
}
