import { useApp } from '../../store/store.ts'
import { BankStages, LocalStages } from './guide-first-stages.tsx'
import { LaterStages } from './guide-later-stages.tsx'

/**
 * The first screen of a new install: from nothing to a registered client, an authorised AIS consent with
 * the accounts on screen, and a completed payment, each step explained, each exchange one click away.
 */
export function GuideView() {
  const guide = useApp((s) => s.guide)
  const setTarget = useApp((s) => s.guideSetTarget)
  return (
    <div className="view guide">
      <header className="view-head">
        <h1>Guided sandbox onboarding</h1>
      </header>
      <p className="lead">
        Five steps from nothing to a payment. Each step says what it does; every HTTP exchange it makes opens in the
        inspector with one click.
      </p>
      <fieldset className="card target">
        <legend>Where to onboard</legend>
        <label className="checkbox">
          <input
            type="radio"
            name="guide-target"
            checked={guide.target === 'local'}
            onChange={() => setTarget('local')}
          />{' '}
          The local sandbox (built in, offline, one click per step)
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="guide-target"
            checked={guide.target === 'bank'}
            onChange={() => setTarget('bank')}
          />{' '}
          The bank's sandbox, with my own TPP identity
        </label>
      </fieldset>
      {guide.target === 'local' ? <LocalStages /> : <BankStages />}
      <LaterStages />
    </div>
  )
}
