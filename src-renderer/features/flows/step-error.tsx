import type { StepErrorDto } from '../../../src-main/contract/flows.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { ExchangeLink } from './exchange-link.tsx'

/**
 * Why a step failed: what, cause and fix, then its code (the one `--json` and the HAR carry, for a CI job
 * to branch on) and a button to the exchange that failed, all inside the panel a screen reader announces.
 */
export function StepError({ title, error }: { title: string; error: StepErrorDto }) {
  return (
    <ErrorPanel error={error}>
      <p className="step-error-code">
        <span className="muted">Code</span> <code>{error.code}</code>
        {error.exchangeId ? (
          <>
            {' '}
            <span className="muted">in</span>{' '}
            <ExchangeLink id={error.exchangeId} role={`the exchange where "${title}" failed`} />
          </>
        ) : null}
      </p>
    </ErrorPanel>
  )
}
