import { useEffect, useState } from 'react'
import { setThemeChoice, themeChoice, type ThemeChoice } from '../lib/theme.ts'
import { VIEW_LABELS, VIEWS } from '../store/app-slice.ts'
import { useApp } from '../store/store.ts'
import { CommandCenter } from './command-center.tsx'

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
            <button
              type="button"
              className="nav-item"
              aria-current={view === v ? 'page' : undefined}
              onClick={() => navigate(v)}
            >
              {VIEW_LABELS[v]}
            </button>
          </li>
        ))}
      </ul>
      <CommandCenter />
      <ThemePicker />
      <HostInfo />
    </nav>
  )
}

function HostInfo() {
  const info = useApp((s) => s.info)
  const host = useApp((s) => s.host)
  return (
    <div className="host-info small muted">
      <div>
        {host === 'electron' ? 'Desktop app' : 'Web host (127.0.0.1)'}
        {info ? ` · v${info.version}` : ''}
      </div>
      <div>{info?.localSandbox ? 'Local sandbox running' : 'Local sandbox not started'}</div>
      {info ? (
        <div className="clip" title={info.dataDir}>
          Data: {info.dataDir}
        </div>
      ) : null}
      {info?.masterKey ? (
        <div
          className={`clip${host === 'electron' && info.masterKey.kind === 'key-file' ? ' text-warn' : ''}`}
          title={info.masterKey.detail}
          data-testid="master-key"
        >
          Master key: {info.masterKey.kind === 'os-keychain' ? 'OS keychain' : 'key file (0600)'}
        </div>
      ) : null}
    </div>
  )
}

/** The theme: the OS's unless chosen here (remembered on this machine). */
function ThemePicker() {
  const [choice, setChoice] = useState<ThemeChoice>(themeChoice)
  // The palette's theme commands change it too.
  useEffect(() => {
    const sync = () => setChoice(themeChoice())
    window.addEventListener('storage', sync)
    document.documentElement.addEventListener('ob-theme', sync)
    return () => {
      window.removeEventListener('storage', sync)
      document.documentElement.removeEventListener('ob-theme', sync)
    }
  }, [])
  return (
    <label className="theme-picker small">
      <span>Theme</span>
      <select
        value={choice}
        onChange={(e) => {
          const c = e.target.value as ThemeChoice
          setChoice(c)
          setThemeChoice(c)
        }}
      >
        <option value="system">Follow the OS</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  )
}
