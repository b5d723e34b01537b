import type { JwtCheckReportDto } from '../../../src-main/contract/diagnosis.ts'
import type { DecodedJwtDto } from '../../../src-main/contract/jwt.ts'
import { Busy } from '../../components/busy.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { useApp } from '../../store/store.ts'

function Report({ jwt, report }: { jwt: DecodedJwtDto; report: JwtCheckReportDto | undefined }) {
  const failed = report?.checks.filter((c) => !c.pass).length ?? 0
  return (
    <article
      className="jwt-check"
      aria-label={`Checks of the JWT in ${jwt.location}`}
      data-role={report?.role}
      data-failed={failed}
    >
      <h4>
        {jwt.location}{' '}
        {report ? (
          <span className={`badge badge-${report.error || failed ? 'fail' : 'pass'}`}>
            {report.error ? '✗ not checked' : failed ? `✗ ${failed} fail` : '✓ all pass'}
          </span>
        ) : null}
      </h4>
      {report ? (
        <>
          <p className="small">{report.roleLabel}</p>
          <p className="small">
            <span className="muted">Key</span> {report.keySource} · <span className="muted">rules</span> {report.rules}
          </p>
          <ErrorPanel error={report.error} title="Not checked" />
          <ChecksList checks={report.checks} label={`Checks (${report.role})`} compact />
        </>
      ) : null}
    </article>
  )
}

/**
 * Every JWT of the exchange checked by its role, as in the JWT debugger: the role guessed from where it sat,
 * the key its signature was checked against, and each check of the role's rules (failures open).
 */
export function JwtChecksPanel({ jwts, exchangeId }: { jwts: DecodedJwtDto[]; exchangeId: string }) {
  const checks = useApp((s) => s.inspector.jwtChecks)
  const op = useApp((s) => s.ops['exchanges.checkJwts'])
  const check = useApp((s) => s.checkJwts)
  if (!jwts.length) return null
  const reports = checks?.id === exchangeId ? checks.reports : undefined
  return (
    <section className="explain-panel jwt-checks" aria-label="JWT checks">
      <h3>
        JWTs ({jwts.length}){' '}
        <button type="button" className="secondary small" disabled={op?.busy} onClick={() => void check()}>
          Check again
        </button>
      </h3>
      {op?.busy && !reports ? <Busy label="Checking signatures and claims…" /> : null}
      {!op?.busy ? <ErrorPanel error={op?.error} title="The JWTs could not be checked" /> : null}
      {jwts.map((j, i) => (
        <Report key={i} jwt={j} report={reports?.find((r) => r.index === i)} />
      ))}
      <p className="muted small">
        Decoded in the JWTs tab. Times are judged at the moment of the exchange; reading the bank's or the directory's
        keys is logged as an exchange.
      </p>
    </section>
  )
}
