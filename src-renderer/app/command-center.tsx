import { useEffect, useMemo, useRef, useState } from 'react'
import { useAppStore } from '../store/store.ts'
import { ACTIONS, actionForKey, filterActions, keyLabel, type ActionContext, type ShortcutAction } from './shortcuts.ts'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

function Keys({ keys }: { keys: string[] }) {
  if (!keys.length) return <span className="muted small">palette</span>
  return (
    <>
      {keys.map((k) => (
        <kbd key={k}>{keyLabel(k, isMac)}</kbd>
      ))}
    </>
  )
}

/** A modal panel: focus moves in when it opens and back when it closes; Escape closes it. */
function Modal({ label, onClose, children }: { label: string; onClose: () => void; children: React.ReactNode }) {
  const back = useRef<Element | null>(null)
  useEffect(() => {
    back.current = document.activeElement
    return () => (back.current as HTMLElement | null)?.focus?.()
  }, [])
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose()
      }}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label={label}
        className="modal card"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            onClose()
          }
        }}
      >
        {children}
      </div>
    </div>
  )
}

/** The `?` panel: every shortcut and palette action, grouped. */
function HelpPanel({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null)
  useEffect(() => close.current?.focus(), [])
  const groups = [...new Set(ACTIONS.map((a) => a.group))]
  return (
    <Modal label="Keyboard shortcuts" onClose={onClose}>
      <header className="view-head">
        <h2>Keyboard shortcuts</h2>
        <button ref={close} type="button" className="secondary small" onClick={onClose}>
          Close
        </button>
      </header>
      <p className="muted small">Single keys work when no text field has the focus; Escape closes this panel.</p>
      {groups.map((g) => (
        <table key={g} className="table" aria-label={`${g} shortcuts`}>
          <thead>
            <tr>
              <th>{g}</th>
              <th>Keys</th>
            </tr>
          </thead>
          <tbody>
            {ACTIONS.filter((a) => a.group === g).map((a) => (
              <tr key={a.name}>
                <td>{a.label}</td>
                <td>
                  <Keys keys={a.keys} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </Modal>
  )
}

/** The command palette: type to filter every action, arrows to choose, Enter to run. */
function Palette({ onClose, run }: { onClose: () => void; run: (a: ShortcutAction) => void }) {
  const [query, setQuery] = useState('')
  const [index, setIndex] = useState(0)
  const shown = useMemo(() => filterActions(query), [query])
  const chosen = Math.min(index, Math.max(0, shown.length - 1))
  return (
    <Modal label="Command palette" onClose={onClose}>
      <input
        type="text"
        autoFocus
        aria-label="Command"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={shown[chosen] ? `palette-${shown[chosen]!.name}` : undefined}
        placeholder="Type a command…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value)
          setIndex(0)
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setIndex(Math.min(shown.length - 1, chosen + 1))
          else if (e.key === 'ArrowUp') setIndex(Math.max(0, chosen - 1))
          else if (e.key === 'Enter' && shown[chosen]) run(shown[chosen]!)
          else return
          e.preventDefault()
        }}
      />
      <ul id="palette-list" role="listbox" aria-label="Commands" className="palette-list">
        {shown.map((a, i) => (
          <li
            key={a.name}
            id={`palette-${a.name}`}
            role="option"
            aria-selected={i === chosen}
            className={i === chosen ? 'chosen' : undefined}
            onMouseDown={(e) => {
              e.preventDefault()
              run(a)
            }}
          >
            <span>{a.label}</span>
            <span>
              <Keys keys={a.keys} />
            </span>
          </li>
        ))}
        {!shown.length ? <li className="muted">No command matches “{query}”.</li> : null}
      </ul>
    </Modal>
  )
}

/** App-wide keys (see shortcuts.ts), the help panel and the command palette. */
export function CommandCenter() {
  const store = useAppStore()
  const [open, setOpen] = useState<'palette' | 'help' | undefined>()
  const ctx = useMemo<ActionContext>(
    () => ({
      state: store.getState,
      document,
      openPalette: () => setOpen('palette'),
      openHelp: () => setOpen('help'),
    }),
    [store],
  )
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat) return
      // While a panel is open only its own keys count (Escape, arrows, Enter).
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return
      const action = actionForKey(e, ACTIONS, isMac)
      if (!action) return
      e.preventDefault()
      action.perform(ctx)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [ctx])
  const run = (a: ShortcutAction) => {
    setOpen(undefined)
    // After the palette has closed and handed the focus back.
    setTimeout(() => a.perform(ctx), 0)
  }
  return (
    <>
      <button type="button" className="link small shortcuts-hint" onClick={() => setOpen('help')}>
        Keyboard shortcuts <kbd>?</kbd>
      </button>
      {open === 'help' ? <HelpPanel onClose={() => setOpen(undefined)} /> : null}
      {open === 'palette' ? <Palette onClose={() => setOpen(undefined)} run={run} /> : null}
    </>
  )
}
