import type { ExchangeDiagnosisDto, SpecReferenceDto } from '../../../src-main/contract/diagnosis.ts'

function SpecReference({ spec }: { spec: SpecReferenceDto }) {
  const text = `${spec.document}: ${spec.section}`
  return (
    <li>
      {spec.url ? (
        <a href={spec.url} target="_blank" rel="noopener noreferrer">
          {text}
        </a>
      ) : (
        text
      )}
    </li>
  )
}

/**
 * What the exchange comes to, as the main side explained it: ok, or the coded error with its cause and fix,
 * each Open Banking `Errors[]` entry with its code explained, and the spec sections the rule is written in.
 */
export function DiagnosisPanel({ diagnosis }: { diagnosis: ExchangeDiagnosisDto | undefined }) {
  if (!diagnosis) return null
  const e = diagnosis.error
  const failed = diagnosis.outcome === 'failed'
  return (
    <section
      className={`explain-panel diagnosis diagnosis-${diagnosis.outcome}`}
      aria-label="Diagnosis"
      data-outcome={diagnosis.outcome}
      data-code={e?.code}
    >
      <h3>
        Diagnosis{' '}
        <span className={`badge badge-${failed ? 'fail' : 'pass'}`}>
          {failed ? `✗ ${e?.code ?? 'failed'}` : '✓ ok'}
        </span>
      </h3>
      <p className="diagnosis-summary">{diagnosis.summary}</p>
      {e ? (
        <>
          <p className="small">
            <span className="muted">What</span> {e.what}
          </p>
          <p className="small">
            <span className="muted">Cause</span> {e.cause}
          </p>
          <p className="small">
            <span className="muted">Fix</span> {e.fix}
          </p>
          {e.problems?.length ? (
            <ul className="problems small" aria-label="Error entries">
              {e.problems.map((p, i) => (
                <li key={i}>
                  <code>{p.code}</code> {p.message}
                  {p.path ? (
                    <>
                      {' '}
                      at <code>{p.path}</code>
                    </>
                  ) : null}
                  {p.explanation ? <div className="muted">{p.explanation}</div> : null}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
      {diagnosis.spec.length ? (
        <>
          <h4>Where the rule is written</h4>
          <ul className="spec-refs small" aria-label="Spec references">
            {diagnosis.spec.map((s, i) => (
              <SpecReference key={i} spec={s} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  )
}
