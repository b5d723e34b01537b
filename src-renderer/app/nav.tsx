import { VIEWS, type ViewId } from '../store/app-slice.ts'
import { useApp } from '../store/store.ts'

export const VIEW_LABELS: Record<ViewId, string> = {
  guide: 'Guide',
  environments: 'Environments & identities',
  registration: 'Registration',
  flows: 'Consent flows',
  data: 'Account data',
  inspector: 'Inspector',
  jwt: 'JWT debugger',
}

/** The main navigation: one real button per view, the current one marked for assistive technology. */
export function Nav() {
  const view = useApp((s) => s.view)
  const navigate = useApp((s) => s.navigate)
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">OB Console</div>
      <ul>
        {VIEWS.map((v) => (
          <li key={v}>
            <button type="button" className="nav-item" aria-current={view === v ? 'page' : undefined} onClick={() => navigate(v)}>
              {VIEW_LABELS[v]}
            </button>
          </li>
        ))}
      </ul>
      <HostInfo />
    </nav>
  )
}

function HostInfo() {
  const info = useApp((s) => s.info)
  const host = useApp((s) => s.host)
  return (
    <div className="host-info small muted">
      <div>{host === 'electron' ? 'Desktop app' : 'Web host (127.0.0.1)'}{info ? ` · v${info.version}` : ''}</div>
      <div>{info?.localSandbox ? 'Local sandbox running' : 'Local sandbox not started'}</div>
      {info ? <div className="clip" title={info.dataDir}>Data: {info.dataDir}</div> : null}
      {info?.masterKey ? (
        <div className={`clip${host === 'electron' && info.masterKey.kind === 'key-file' ? ' text-warn' : ''}`} title={info.masterKey.detail} data-testid="master-key">
          Master key: {info.masterKey.kind === 'os-keychain' ? 'OS keychain' : 'key file (0600)'}
        </div>
      ) : null}
    </div>
  )
}
