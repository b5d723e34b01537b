import { useState } from 'react'
import type { ExchangeDto } from '../../../src-main/contract/exchange.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SecretsList } from '../../components/secrets-list.tsx'
import { saveText } from '../../lib/download.ts'
import { formatDate, formatMs } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { ConformancePanel } from './conformance-panel.tsx'
import { DiagnosisPanel } from './diagnosis-panel.tsx'
import { Body, Headers, JwtPanel, Timings, Tls } from './exchange-parts.tsx'
import { JwtChecksPanel } from './jwt-checks-panel.tsx'

const TABS = ['Request', 'Response', 'Timings & TLS', 'JWTs'] as const
type Tab = (typeof TABS)[number]

/** Says so when the list's filter hides the exchange shown (opened from a step card or the sequence diagram). */
function OutsideListNote({ id, byConsole }: { id: string; byConsole: boolean }) {
  const listed = useApp((s) => s.inspector.items.some((i) => i.id === id))
  const filtered = useApp(
    (s) =>
      (byConsole && !s.inspector.showByConsole) ||
      Object.keys(s.inspector.filter).some((k) => k !== 'offset' && k !== 'limit'),
  )
  const clear = useApp((s) => s.clearExchangeFilters)
  if (listed) return null
  return (
    <p className="outside-list small" role="status">
      {filtered ? "The list's filters hide this exchange" : 'This exchange is not among those loaded in the list'}; it
      is shown here all the same.{' '}
      <button type="button" className="link" onClick={() => void clear()}>
        {filtered ? 'Clear the filters' : 'Read the list again'}
      </button>
    </p>
  )
}

/** Secrets with one Reveal (and Mask again) each, and the exchange as curl or HAR (masked, whatever was revealed). */
function SecretsAndExport({ detail }: { detail: ExchangeDto }) {
  const exported = useApp((s) => s.inspector.exported)
  const revealSecret = useApp((s) => s.revealSecret)
  const maskSecretAgain = useApp((s) => s.maskSecretAgain)
  const maskAgain = useApp((s) => s.maskAgain)
  const revealOp = useApp((s) => s.ops['secrets.reveal'])
  const exportExchange = useApp((s) => s.exportExchange)
  const exportOp = useApp((s) => s.ops['exchanges.export'])
  const anyRevealed = detail.secrets?.some((s) => s.revealed) ?? false
  // Open while something is revealed, and as the user left it (Mask again does not fold it away).
  const [open, setOpen] = useState(anyRevealed)
  return (
    <>
      {detail.secrets?.length ? (
        <details
          className="secrets-panel"
          open={open || anyRevealed}
          onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
        >
          <summary>
            Secrets in this exchange ({detail.secrets.length}): masked
            {detail.secrets.some((s) => s.revealed) ? ', some revealed' : ''}
          </summary>
          <SecretsList
            items={detail.secrets}
            label="Secrets in this exchange"
            busy={revealOp?.busy}
            onReveal={(ref) => void revealSecret(ref)}
            onMask={maskSecretAgain}
            onLeave={() => maskAgain({ exchangeId: detail.id })}
          />
          <ErrorPanel error={revealOp?.error} title="The secret could not be revealed" />
        </details>
      ) : null}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void exportExchange('curl')}>
          Copy as curl
        </button>
        <button type="button" className="secondary" onClick={() => void exportExchange('har')}>
          Export HAR
        </button>
      </div>
      <ErrorPanel error={exportOp?.error} title="Export failed" />
      {exported && exported.id === detail.id ? (
        <div className="export">
          <label htmlFor="export-text" className="small">
            {exported.format === 'curl' ? 'curl command' : 'HAR'} (secrets masked, even those revealed above; private
            keys never)
          </label>
          <textarea id="export-text" readOnly value={exported.text} rows={exported.format === 'curl' ? 4 : 8} />
          <div className="actions">
            <CopyButton text={exported.text} />
            <button
              type="button"
              className="secondary"
              onClick={() =>
                saveText(
                  `exchange-${exported.id.slice(0, 8)}.${exported.format === 'har' ? 'har' : 'sh'}`,
                  exported.text,
                  exported.format === 'har' ? 'application/json' : 'text/plain',
                )
              }
            >
              Save as file
            </button>
          </div>
        </div>
      ) : null}
    </>
  )
}

/** Request and response, timings and TLS, the decoded JWTs: one tab at a time. */
function ExchangeTabs({ detail, tab, setTab }: { detail: ExchangeDto; tab: Tab; setTab: (t: Tab) => void }) {
  const res = detail.response
  return (
    <>
      <div className="tabs" role="tablist" aria-label="Exchange parts">
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className="tab" onClick={() => setTab(t)}>
            {t}
            {t === 'JWTs' && detail.jwts.length ? ` (${detail.jwts.length})` : ''}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'Request' ? (
          <>
            <h4>Request headers</h4>
            <Headers headers={detail.request.headers} label="Request headers" />
            <h4>Request body</h4>
            <Body body={detail.request.body} label="Request body" />
          </>
        ) : tab === 'Response' ? (
          res ? (
            <>
              <h4>Response headers</h4>
              <Headers headers={res.headers} label="Response headers" />
              <h4>Response body</h4>
              <Body body={res.body} label="Response body" />
            </>
          ) : (
            <p className="muted">No response was received.</p>
          )
        ) : tab === 'Timings & TLS' ? (
          <>
            <Timings exchange={detail} />
            <Tls exchange={detail} />
          </>
        ) : detail.jwts.length ? (
          detail.jwts.map((j, i) => <JwtPanel key={i} jwt={j} />)
        ) : (
          <p className="muted">No JWT in this exchange.</p>
        )}
      </div>
    </>
  )
}

/**
 * The selected exchange in full: its title, secrets and exports, then the body (tabs) with the panel that
 * explains it beside (stacked above when the detail is narrow): the diagnosis, the conformance of the
 * exchange to the spec, the checks of every JWT.
 */
export function ExchangeDetail() {
  const masked = useApp((s) => s.inspector.detail)
  const revealedView = useApp((s) => s.inspector.revealedView)
  const selectedId = useApp((s) => s.inspector.selectedId)
  const op = useApp((s) => s.ops['exchanges.get'])
  // The tab stays as chosen from one exchange to the next.
  const [tab, setTab] = useState<Tab>('Response')
  if (!selectedId) return <p className="muted">Pick an exchange on the left.</p>
  if (op?.error) return <ErrorPanel error={op.error} title="The exchange could not be read" />
  // The secrets this window revealed, while they are: the view asked with them (the verdict is the masked one's).
  const detail =
    masked && revealedView?.id === masked.id ? { ...revealedView.view, conformance: masked.conformance } : masked
  if (!detail || detail.id !== selectedId)
    return (
      <p className="muted" role="status">
        Loading the exchange…
      </p>
    )
  const res = detail.response
  return (
    <div className="exchange-detail" role="region" aria-label="Exchange detail" data-exchange-id={detail.id}>
      <div className="exchange-title">
        <strong>{detail.request.method}</strong> <code className="wrap">{detail.request.url}</code>
        <div className="small">
          {res ? (
            <span className={res.status >= 400 ? 'text-fail' : 'text-pass'}>
              {res.status} {res.statusText ?? ''}
            </span>
          ) : (
            <span className="text-fail">no response</span>
          )}
          <span className="muted">
            {' '}
            · {formatDate(detail.startedAt)} · {formatMs(detail.timings.total)}
            {detail.label ? ` · ${detail.label}` : ''}
            {detail.byConsole ? " · the console's own request" : ''}
          </span>
        </div>
        <OutsideListNote id={detail.id} byConsole={detail.byConsole === true} />
      </div>
      <SecretsAndExport detail={detail} />
      <div className="exchange-body">
        <div className="exchange-main">
          <ExchangeTabs detail={detail} tab={tab} setTab={setTab} />
        </div>
        <aside className="exchange-explain" aria-label="What this exchange comes to">
          {detail.diagnosis ? (
            <DiagnosisPanel diagnosis={detail.diagnosis} />
          ) : (
            <ErrorPanel error={detail.error} title="This exchange failed" />
          )}
          <ConformancePanel exchangeId={detail.id} conformance={detail.conformance} />
          <JwtChecksPanel jwts={detail.jwts} exchangeId={detail.id} />
        </aside>
      </div>
    </div>
  )
}
