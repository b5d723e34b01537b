import { useState } from 'react'
import type { CheckResult } from '../../../src-main/contract/checks.ts'
import { Busy } from '../../components/busy.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { ChoiceField } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { TextAreaField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'
import { prerequisitesKey } from '../../store/tpp-tools-slice.ts'

const JWKS_HINT =
  "The bank's directory cannot be asked from here: give its JWKS to check the software statement's signature and kid; " +
  'without it those items say they were not checked.'

/** A check that passed only because it could not be made (the bank's directory has no API to ask offline). */
export const notChecked = (actual: string) => actual.startsWith('not checked')

/** The checklist, with what is to fix and what could not be checked from here. */
function Checklist({ checks }: { checks: CheckResult[] }) {
  const failed = checks.filter((c) => !c.pass)
  const unchecked = checks.filter((c) => c.pass && notChecked(c.actual))
  return (
    <section className="card" aria-label="Prerequisites checklist">
      <p role="status" className={failed.length ? 'text-fail' : 'text-pass'}>
        {failed.length
          ? `${failed.length} item${failed.length > 1 ? 's' : ''} to fix before registering: ${failed.map((c) => c.name).join(', ')}.`
          : 'Every prerequisite is met.'}
        {unchecked.length ? (
          <span className="text-warn"> {unchecked.length} could not be checked from here.</span>
        ) : null}
      </p>
      <ChecksList checks={checks} label="Prerequisites" />
    </section>
  )
}

/** How the directory is reached: asked directly on the local sandbox, else through the JWKS the user gives. */
function DirectoryNote({ local, jwks, setJwks }: { local: boolean; jwks: string; setJwks: (v: string) => void }) {
  return local ? (
    <p className="muted small">
      The local sandbox's directory is asked directly: the organisation and its signing keys.
    </p>
  ) : (
    <TextAreaField
      label="Directory JWKS (URL or JSON)"
      hint={JWKS_HINT}
      rows={2}
      value={jwks}
      spellCheck={false}
      onChange={setJwks}
      placeholder={'https://keystore.directory.example/…/jwks or {"keys": […]}'}
    />
  )
}

/**
 * The prerequisites of a TPP identity for an environment, item by item, each green or red with its fix:
 * organisation id, the directory (asked on the local sandbox; the bank's says what cannot be checked
 * offline), the SSA's signature and kid against the directory's JWKS, the transport certificate's subject
 * against the SSA, redirect URIs within the SSA's, key match, chain to the CAs held, expiry with days left.
 */
export function PrerequisitesView() {
  const environments = useApp((s) => s.environments)
  const tpps = useApp((s) => s.tpps)
  const selected = useApp((s) => s.prerequisitesTarget)
  const checkAll = useApp((s) => s.checkAll)
  const [environmentId, setEnvironmentId] = useState(
    selected?.environmentId ?? environments.find((e) => e.tppId)?.id ?? environments[0]?.id ?? '',
  )
  const env = environments.find((e) => e.id === environmentId)
  const [tppId, setTppId] = useState(selected?.tppId ?? env?.tppId ?? tpps[0]?.id ?? '')
  const [jwks, setJwks] = useState('')
  const key = prerequisitesKey(tppId, environmentId)
  const checks = useApp((s) => s.checklists[key])
  const op = useApp((s) => s.ops[`prerequisites.check:${key}`])
  const local = env?.kind === 'local-sandbox'
  return (
    <div className="view">
      <header className="view-head">
        <h1>Prerequisites</h1>
      </header>
      <form
        className="card"
        aria-label="Prerequisites to check"
        onSubmit={(e) => {
          e.preventDefault()
          void checkAll({ tppId, environmentId, ...(jwks.trim() ? { directoryJwks: jwks.trim() } : {}) })
        }}
      >
        <div className="grid-2">
          <ChoiceField
            label="TPP identity"
            value={tppId}
            choices={tpps.map((t) => ({ value: t.id, label: `${t.name}${t.orgId ? ` (${t.orgId})` : ''}` }))}
            onChange={setTppId}
          />
          <ChoiceField
            label="Environment"
            value={environmentId}
            choices={environments.map((e) => ({ value: e.id, label: e.name }))}
            onChange={setEnvironmentId}
          />
        </div>
        {env ? <DirectoryNote local={local} jwks={jwks} setJwks={setJwks} /> : null}
        <div className="actions">
          <button type="submit" disabled={!tppId || !environmentId || op?.busy}>
            Check prerequisites
          </button>
          {op?.busy ? <Busy label="Checking…" /> : null}
        </div>
      </form>
      {!tpps.length ? (
        <p className="muted">
          No TPP identity yet: get one in the Guide (local sandbox), import yours in Environments &amp; identities, or
          generate keys in Keys &amp; certificates.
        </p>
      ) : null}
      <ErrorPanel error={op?.error} title="Prerequisites not checked" />
      {checks ? <Checklist checks={checks} /> : null}
    </div>
  )
}
