/**
 * The local sandbox's conformance report of one client: every rule the sandbox checked on the client's
 * AIS and PIS requests, passed and failed, the failures expandable (the request, what was wrong, the spec
 * it rests on). Local sandbox only (`sandbox.report`, through the local directory's admin endpoint).
 */
import { useEffect } from 'react'
import type { SandboxReportRuleDto } from '../../../src-main/contract/api.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { StatusBadge } from '../../components/status-badge.tsx'
import { formatTime } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'

function RuleRow({ rule }: { rule: SandboxReportRuleDto }) {
  const status = rule.failed ? 'fail' : rule.passed ? 'pass' : undefined
  return (
    <tr data-rule={rule.id} data-status={status ?? 'unchecked'} aria-label={`Rule ${rule.id}`}>
      <td>
        {status ? (
          <StatusBadge status={status} />
        ) : (
          <span className="badge" data-status="unchecked">
            Not checked
          </span>
        )}
      </td>
      <td>
        <code>{rule.id}</code> <span className={rule.failed ? 'text-fail' : undefined}>{rule.title}</span>
        {rule.failed ? (
          <details className="checks">
            <summary>
              {rule.lastFailures.length} last failure{rule.lastFailures.length === 1 ? '' : 's'}
            </summary>
            <ul className="plain-list small" aria-label={`Failures of ${rule.id}`}>
              {rule.lastFailures.map((f, i) => (
                <li key={`${f.at}-${i}`}>
                  <span className="muted">{formatTime(f.at)}</span>{' '}
                  <code>
                    {f.method} {f.path}
                  </code>
                  {' → '}
                  {f.status}
                  {f.refused ? ' (refused)' : ' (answered; recorded)'}
                  <br />
                  <span>{f.detail}</span>
                  <br />
                  <span className="muted">
                    x-fapi-interaction-id <code>{f.interactionId}</code>
                  </span>
                </li>
              ))}
            </ul>
            <p className="muted small">
              Checks: {rule.checks} Rests on: {rule.spec}
            </p>
          </details>
        ) : null}
      </td>
      <td className="num">{rule.passed}</td>
      <td className={`num${rule.failed ? ' text-fail' : ''}`}>{rule.failed}</td>
    </tr>
  )
}

/** `refreshKey`: the report is read again whenever it changes (a flow's finished steps, say). */
export function ConformanceReport({ clientId, refreshKey }: { clientId: string; refreshKey?: string | number }) {
  const report = useApp((s) => s.sandboxReports[clientId])
  const load = useApp((s) => s.loadSandboxReport)
  const op = useApp((s) => s.ops[`sandbox.report:${clientId}`])
  useEffect(() => {
    void load(clientId)
  }, [load, clientId, refreshKey])
  const failed = report?.rules.filter((r) => r.failed) ?? []
  const nothingYet = op?.error?.code === 'NOT_FOUND' && !report ? op.error : undefined
  return (
    <section className="card" aria-label="Conformance report">
      <div className="flow-head">
        <h3>What the sandbox saw this client do</h3>
        <button type="button" className="secondary small" disabled={op?.busy} onClick={() => void load(clientId)}>
          {op?.busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {report ? (
        <>
          <p aria-label="Conformance summary" className={report.ok ? 'text-pass' : 'text-fail'}>
            {report.ok
              ? 'Every rule the sandbox checked passed'
              : `${failed.length} rule${failed.length === 1 ? '' : 's'} failed`}
            <span className="muted">
              {' · '}
              {report.requests} request{report.requests === 1 ? '' : 's'} of client {report.clientId}, last at{' '}
              {formatTime(report.lastSeen)}
            </span>
          </p>
          <table className="table" aria-label="Conformance rules">
            <thead>
              <tr>
                <th>Result</th>
                <th>Rule</th>
                <th className="num">Passed</th>
                <th className="num">Failed</th>
              </tr>
            </thead>
            <tbody>
              {report.rules.map((r) => (
                <RuleRow key={r.id} rule={r} />
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {nothingYet ? (
        <p className="muted">
          {nothingYet.what} {nothingYet.fix}
        </p>
      ) : (
        <ErrorPanel error={op?.error?.code === 'NOT_FOUND' ? undefined : op?.error} title="The conformance report" />
      )}
      <p className="muted small">
        The same report: <code>ob-console sandbox report --client {clientId}</code>, or{' '}
        <code>GET /admin/conformance?client_id=…</code> on the sandbox's directory.
      </p>
    </section>
  )
}
