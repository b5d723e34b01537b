import { useState } from 'react'
import type { BodyDto, ExchangeDto, HeaderDto } from '../../../src-main/contract/exchange.ts'
import type { DecodedJwtDto } from '../../../src-main/contract/jwt.ts'
import { ChecksList } from '../../components/checks-list.tsx'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { SecretsList } from '../../components/secrets-list.tsx'
import { Code, displayBody } from '../../editor/lazy.tsx'
import { saveText } from '../../lib/download.ts'
import { formatBytes, formatDate, formatMs, toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { ConformancePanel } from './conformance-panel.tsx'

function Headers({ headers, label }: { headers: HeaderDto[]; label: string }) {
  if (!headers.length) return <p className="muted">No headers.</p>
  return (
    <table className="table headers" aria-label={label}>
      <tbody>
        {headers.map(([name, value], i) => <tr key={`${name}-${i}`}><th scope="row">{name}</th><td><code>{value}</code></td></tr>)}
      </tbody>
    </table>
  )
}

function Body({ body, label }: { body: BodyDto | undefined; label: string }) {
  if (!body || (!body.text && body.size === 0)) return <p className="muted">No body.</p>
  if (body.dropped) {
    return (
      <p className="muted" role="note" aria-label={label}>
        {formatBytes(body.size)}{body.contentType ? ` · ${body.contentType}` : ''} · This body is {body.dropped.reason}
      </p>
    )
  }
  if (body.encoding === 'base64') return <p className="muted">Binary body ({formatBytes(body.size)}{body.contentType ? `, ${body.contentType}` : ''}): export as HAR to get it.</p>
  const shown = displayBody(body.text, body.contentType)
  return (
    <div>
      <p className="muted small">{formatBytes(body.size)}{body.contentType ? ` · ${body.contentType}` : ''}{body.truncated ? ' · cut at the log limit' : ''}{!shown.pretty && shown.language === 'json' ? ' · shown as received (large): use Format JSON' : ''}</p>
      <Code value={shown.text} language={shown.language} ariaLabel={label} formattable={shown.language === 'json' && !shown.pretty} height={shown.text.length > 20_000 ? 480 : undefined} />
    </div>
  )
}

/** Connect, TLS, first byte and total as proportional bars. */
function Timings({ exchange }: { exchange: ExchangeDto }) {
  const t = exchange.timings
  const total = Math.max(t.total, 1)
  const parts: Array<[string, number | undefined]> = [['DNS', t.dns], ['Connect', t.connect], ['TLS', t.tls], ['First byte', t.firstByte], ['Total', t.total]]
  return (
    <div className="timings" aria-label="Timings">
      {parts.filter(([, v]) => v !== undefined).map(([name, v]) => (
        <div key={name} className="timing">
          <span className="timing-name">{name}</span>
          <span className="timing-bar"><span style={{ width: `${Math.min(100, ((v ?? 0) / total) * 100)}%` }} /></span>
          <span className="timing-value">{formatMs(v)}</span>
        </div>
      ))}
      <p className="muted small">{exchange.reusedConnection ? 'Reused connection (no new handshake).' : 'New connection.'}</p>
    </div>
  )
}

function Tls({ exchange }: { exchange: ExchangeDto }) {
  const tls = exchange.tls
  const cert = exchange.presentedCertificate
  return (
    <div>
      {tls ? (
        <>
          <p className={tls.verification === 'off' ? 'tls-off' : 'tls-on'} role={tls.verification === 'off' ? 'note' : undefined}>
            {tls.verification === 'on' ? 'Server certificate verified.' : `Server certificate NOT verified (verification is off for this environment, as the bank's sandbox spec says)${tls.unverifiedReason ? `: verification would have said ${tls.unverifiedReason}` : ''}.`}
          </p>
          <KeyValue label="TLS" rows={[
            ['Protocol', tls.protocol], ['Cipher', tls.cipher],
            ['Server certificate', tls.serverCertificate?.subjectDn], ['Issued by', tls.serverCertificate?.issuerDn],
            ['Valid to', tls.serverCertificate ? formatDate(tls.serverCertificate.validTo) : undefined],
            ['SHA-256', tls.serverCertificate ? <code className="wrap">{tls.serverCertificate.sha256Hex}</code> : undefined],
            ['Server asked for a client certificate', tls.clientCertificateRequested ? 'yes (mutual TLS)' : 'no'],
            ['Handshake', tls.sessionResumed === undefined ? undefined : tls.sessionResumed ? 'resumed an earlier session of this origin' : 'full'],
          ]} />
        </>
      ) : <p className="muted">No TLS (plain HTTP, or the connection failed before the handshake).</p>}
      <h5>Client certificate presented</h5>
      {cert ? (
        <KeyValue label="Client certificate" rows={[['Subject', cert.subjectDn], ['x5t#S256', <code className="wrap">{cert.thumbprint}</code>], ['Sent', cert.sent ? 'yes: the server requested it' : 'no: the server did not ask']]} />
      ) : <p className="muted">None: this identity has no transport certificate.</p>}
    </div>
  )
}

/** One JWT found in the exchange, decoded, with its times as dates and its checks. */
export function JwtPanel({ jwt }: { jwt: DecodedJwtDto }) {
  return (
    <article className="jwt" aria-label={`JWT in ${jwt.location}`}>
      <h5>{jwt.location} <span className="muted small">signature {jwt.signature}</span></h5>
      {jwt.error ? <p className="text-fail">Not decodable: {jwt.error}</p> : null}
      <div className="grid-2">
        <div><div className="muted small">Header</div><Code value={toJson(jwt.header)} ariaLabel={`Header of the JWT in ${jwt.location}`} /></div>
        <div><div className="muted small">Claims</div><Code value={jwt.claims ? toJson(jwt.claims) : '(detached: the payload is the HTTP body)'} language={jwt.claims ? 'json' : 'plaintext'} ariaLabel={`Claims of the JWT in ${jwt.location}`} /></div>
      </div>
      {Object.keys(jwt.times).length ? <KeyValue label="Times" rows={Object.entries(jwt.times).map(([k, v]) => [k, `${formatDate(v)} (${v})`])} /> : null}
      {jwt.checks ? <ChecksList checks={jwt.checks} label={`Checks of the JWT in ${jwt.location}`} /> : null}
    </article>
  )
}

const TABS = ['Request', 'Response', 'Timings & TLS', 'JWTs'] as const

/** The selected exchange in full: request and response, timings, TLS facts, JWTs; reveal and export. */
export function ExchangeDetail() {
  const detail = useApp((s) => s.inspector.detail)
  const selectedId = useApp((s) => s.inspector.selectedId)
  const exported = useApp((s) => s.inspector.exported)
  const revealSecret = useApp((s) => s.revealSecret)
  const revealOp = useApp((s) => s.ops['secrets.reveal'])
  const exportExchange = useApp((s) => s.exportExchange)
  const op = useApp((s) => s.ops['exchanges.get'])
  const exportOp = useApp((s) => s.ops['exchanges.export'])
  const [tab, setTab] = useState<(typeof TABS)[number]>('Response')
  if (!selectedId) return <p className="muted">Pick an exchange on the left.</p>
  if (op?.error) return <ErrorPanel error={op.error} title="The exchange could not be read" />
  if (!detail || detail.id !== selectedId) return <p className="muted" role="status">Loading the exchange…</p>
  const res = detail.response
  return (
    <div className="exchange-detail" role="region" aria-label="Exchange detail">
      <div className="exchange-title">
        <strong>{detail.request.method}</strong> <code className="wrap">{detail.request.url}</code>
        <div className="small">
          {res ? <span className={res.status >= 400 ? 'text-fail' : 'text-pass'}>{res.status} {res.statusText ?? ''}</span> : <span className="text-fail">no response</span>}
          <span className="muted"> · {formatDate(detail.startedAt)} · {formatMs(detail.timings.total)}{detail.label ? ` · ${detail.label}` : ''}</span>
        </div>
      </div>
      {detail.secrets?.length ? (
        <details className="secrets-panel" open={detail.secrets.some((s) => s.revealed)}>
          <summary>Secrets in this exchange ({detail.secrets.length}): masked{detail.secrets.some((s) => s.revealed) ? ', some revealed' : ''}</summary>
          <SecretsList items={detail.secrets} label="Secrets in this exchange" busy={revealOp?.busy} onReveal={(ref) => void revealSecret(ref)} />
          <ErrorPanel error={revealOp?.error} title="The secret could not be revealed" />
        </details>
      ) : null}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void exportExchange('curl')}>Copy as curl</button>
        <button type="button" className="secondary" onClick={() => void exportExchange('har')}>Export HAR</button>
      </div>
      <ErrorPanel error={exportOp?.error} title="Export failed" />
      {exported && exported.id === detail.id ? (
        <div className="export">
          <label htmlFor="export-text" className="small">{exported.format === 'curl' ? 'curl command' : 'HAR'} (secrets masked, except those you revealed; private keys never)</label>
          <textarea id="export-text" readOnly value={exported.text} rows={exported.format === 'curl' ? 4 : 8} />
          <div className="actions">
            <CopyButton text={exported.text} />
            <button type="button" className="secondary" onClick={() => saveText(`exchange-${exported.id.slice(0, 8)}.${exported.format === 'har' ? 'har' : 'sh'}`, exported.text, exported.format === 'har' ? 'application/json' : 'text/plain')}>
              Save as file
            </button>
          </div>
        </div>
      ) : null}
      <ErrorPanel error={detail.error} title="This exchange failed" />
      <div className="tabs" role="tablist" aria-label="Exchange parts">
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className="tab" onClick={() => setTab(t)}>
            {t}{t === 'JWTs' && detail.jwts.length ? ` (${detail.jwts.length})` : ''}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'Request' ? (
          <>
            <h5>Request headers</h5>
            <Headers headers={detail.request.headers} label="Request headers" />
            <h5>Request body</h5>
            <Body body={detail.request.body} label="Request body" />
          </>
        ) : tab === 'Response' ? (
          res ? (
            <>
              <h5>Response headers</h5>
              <Headers headers={res.headers} label="Response headers" />
              <h5>Response body</h5>
              <Body body={res.body} label="Response body" />
              <ConformancePanel exchangeId={detail.id} conformance={detail.conformance} />
            </>
          ) : <p className="muted">No response was received.</p>
        ) : tab === 'Timings & TLS' ? (
          <>
            <Timings exchange={detail} />
            <Tls exchange={detail} />
          </>
        ) : detail.jwts.length ? detail.jwts.map((j, i) => <JwtPanel key={i} jwt={j} />) : <p className="muted">No JWT in this exchange.</p>}
      </div>
    </div>
  )
}
