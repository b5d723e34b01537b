// The parts of an exchange's detail: headers, bodies (Monaco), timings, TLS facts and the decoded JWTs.
import type { BodyDto, ExchangeDto, HeaderDto } from '../../../src-main/contract/exchange.ts'
import type { DecodedJwtDto } from '../../../src-main/contract/jwt.ts'
import { ChecksList } from '../../components/checks-list.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { Code, displayBody } from '../../editor/lazy.tsx'
import { formatBytes, formatDate, formatMs, toJson } from '../../lib/format.ts'

export function Headers({ headers, label }: { headers: HeaderDto[]; label: string }) {
  if (!headers.length) return <p className="muted">No headers.</p>
  return (
    <table className="table headers" aria-label={label}>
      <tbody>
        {headers.map(([name, value], i) => (
          <tr key={`${name}-${i}`}>
            <th scope="row">{name}</th>
            <td>
              <code>{value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function Body({ body, label }: { body: BodyDto | undefined; label: string }) {
  if (!body || (!body.text && body.size === 0)) return <p className="muted">No body.</p>
  if (body.dropped) {
    return (
      <p className="muted" role="note" aria-label={label}>
        {formatBytes(body.size)}
        {body.contentType ? ` · ${body.contentType}` : ''} · This body is {body.dropped.reason}
      </p>
    )
  }
  if (body.encoding === 'base64')
    return (
      <p className="muted">
        Binary body ({formatBytes(body.size)}
        {body.contentType ? `, ${body.contentType}` : ''}): export as HAR to get it.
      </p>
    )
  const shown = displayBody(body.text, body.contentType)
  return (
    <div>
      <p className="muted small">
        {formatBytes(body.size)}
        {body.contentType ? ` · ${body.contentType}` : ''}
        {body.truncated ? ' · cut at the log limit' : ''}
        {!shown.pretty && shown.language === 'json' ? ' · shown as received (large): use Format JSON' : ''}
      </p>
      <Code
        value={shown.text}
        language={shown.language}
        ariaLabel={label}
        formattable={shown.language === 'json' && !shown.pretty}
        height={shown.text.length > 20_000 ? 480 : undefined}
      />
    </div>
  )
}

/** Connect, TLS, first byte and total as proportional bars. */
export function Timings({ exchange }: { exchange: ExchangeDto }) {
  const t = exchange.timings
  const total = Math.max(t.total, 1)
  const parts: Array<[string, number | undefined]> = [
    ['DNS', t.dns],
    ['Connect', t.connect],
    ['TLS', t.tls],
    ['First byte', t.firstByte],
    ['Total', t.total],
  ]
  return (
    <div className="timings" aria-label="Timings">
      {parts
        .filter(([, v]) => v !== undefined)
        .map(([name, v]) => (
          <div key={name} className="timing">
            <span className="timing-name">{name}</span>
            <span className="timing-bar">
              <span style={{ width: `${Math.min(100, ((v ?? 0) / total) * 100)}%` }} />
            </span>
            <span className="timing-value">{formatMs(v)}</span>
          </div>
        ))}
      <p className="muted small">
        {exchange.reusedConnection
          ? 'Reused connection (no new handshake).'
          : t.preconnected !== undefined
            ? `New connection, opened while the request was prepared: ${formatMs(t.preconnected)} of its setup came before the request, the bars show what the request still waited for.`
            : 'New connection.'}
      </p>
    </div>
  )
}

export function Tls({ exchange }: { exchange: ExchangeDto }) {
  const tls = exchange.tls
  const cert = exchange.presentedCertificate
  return (
    <div>
      {tls ? (
        <>
          <p
            className={tls.verification === 'off' ? 'tls-off' : 'tls-on'}
            role={tls.verification === 'off' ? 'note' : undefined}
          >
            {tls.verification === 'on'
              ? 'Server certificate verified.'
              : `Server certificate NOT verified (verification is off for this environment, as the bank's sandbox spec says)${tls.unverifiedReason ? `: verification would have said ${tls.unverifiedReason}` : ''}.`}
          </p>
          <KeyValue
            label="TLS"
            rows={[
              ['Protocol', tls.protocol],
              ['Cipher', tls.cipher],
              ['Server certificate', tls.serverCertificate?.subjectDn],
              ['Issued by', tls.serverCertificate?.issuerDn],
              ['Valid to', tls.serverCertificate ? formatDate(tls.serverCertificate.validTo) : undefined],
              [
                'SHA-256',
                tls.serverCertificate ? <code className="wrap">{tls.serverCertificate.sha256Hex}</code> : undefined,
              ],
              ['Server asked for a client certificate', tls.clientCertificateRequested ? 'yes (mutual TLS)' : 'no'],
              [
                'Handshake',
                tls.sessionResumed === undefined
                  ? undefined
                  : tls.sessionResumed
                    ? 'resumed an earlier session of this origin'
                    : 'full',
              ],
            ]}
          />
        </>
      ) : (
        <p className="muted">No TLS (plain HTTP, or the connection failed before the handshake).</p>
      )}
      <h4>Client certificate presented</h4>
      {cert ? (
        <KeyValue
          label="Client certificate"
          rows={[
            ['Subject', cert.subjectDn],
            ['x5t#S256', <code className="wrap">{cert.thumbprint}</code>],
            [
              'Sent',
              cert.sent
                ? 'yes: the server requested it'
                : tls?.sessionResumed
                  ? 'not again: the TLS session was resumed, so the certificate sent when it began still holds'
                  : 'no: the server did not ask',
            ],
          ]}
        />
      ) : (
        <p className="muted">None: this identity has no transport certificate.</p>
      )}
    </div>
  )
}

/** One JWT found in the exchange, decoded, with its times as dates and its checks. */
export function JwtPanel({ jwt }: { jwt: DecodedJwtDto }) {
  return (
    <article className="jwt" aria-label={`JWT in ${jwt.location}`}>
      <h4>
        {jwt.location} <span className="muted small">signature {jwt.signature}</span>
      </h4>
      {jwt.error ? <p className="text-fail">Not decodable: {jwt.error}</p> : null}
      <div className="grid-2">
        <div>
          <div className="muted small">Header</div>
          <Code value={toJson(jwt.header)} ariaLabel={`Header of the JWT in ${jwt.location}`} />
        </div>
        <div>
          <div className="muted small">Claims</div>
          <Code
            value={jwt.claims ? toJson(jwt.claims) : '(detached: the payload is the HTTP body)'}
            language={jwt.claims ? 'json' : 'plaintext'}
            ariaLabel={`Claims of the JWT in ${jwt.location}`}
          />
        </div>
      </div>
      {Object.keys(jwt.times).length ? (
        <KeyValue label="Times" rows={Object.entries(jwt.times).map(([k, v]) => [k, `${formatDate(v)} (${v})`])} />
      ) : null}
      {jwt.checks ? <ChecksList checks={jwt.checks} label={`Checks of the JWT in ${jwt.location}`} /> : null}
    </article>
  )
}
