import { useEffect, useState } from 'react'
import type { ConsentRecordDto } from '../../../src-main/contract/consents.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { StatusBadge } from '../../components/status-badge.tsx'
import { Code } from '../../editor/lazy.tsx'
import { formatDate, toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { BudgetPanel } from '../data/account-data.tsx'
import { ExchangeLink } from '../flows/exchange-link.tsx'
import { badgeWords, consentExpired, expiryWords, revocable, scaWords } from './consent-words.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'
import { ConfirmPrompt } from '../../components/confirm-prompt.tsx'

const reasonWords = (r: { StatusReasonCode?: string; StatusReasonDescription?: string }) =>
  `${r.StatusReasonCode ?? ''} ${r.StatusReasonDescription ?? ''}`.trim()

/** The consent's expiry, last SCA, permissions, creation and last read from the bank. */
function ConsentFacts({ consent, now }: { consent: ConsentRecordDto; now: number }) {
  const expiry = expiryWords(consent, now)
  return (
    <dl className="kv">
      <dt>Expiry</dt>
      <dd className={expiry.expired ? 'text-fail' : undefined} aria-label="Expiry">
        {expiry.text}
      </dd>
      <dt>SCA</dt>
      <dd aria-label="Last SCA">{scaWords(consent, now)}</dd>
      <dt>Permissions</dt>
      <dd>
        {consent.permissions?.length ? (
          consent.permissions.join(', ')
        ) : (
          <span className="muted">not read yet: Read from the bank</span>
        )}
      </dd>
      <dt>Created</dt>
      <dd>
        {formatDate(consent.createdAt)}
        {consent.flowId ? <span className="muted small"> · flow {consent.flowId}</span> : null}
      </dd>
      <dt>Read from the bank</dt>
      <dd>{consent.checkedAt ? formatDate(consent.checkedAt) : 'never'}</dd>
    </dl>
  )
}

type Reason = { StatusReasonCode?: string; StatusReasonDescription?: string }

/** What the bank last said of the consent (status, since when, why), with its whole answer on demand. */
function BankAnswer({ id, read }: { id: string; read: { data: unknown; exchangeId: string } }) {
  const [showAnswer, setShowAnswer] = useState(false)
  const data = read.data as { Status?: unknown; StatusUpdateDateTime?: string; StatusReason?: Reason[] }
  return (
    <div className="small">
      <p>
        The bank says {String(data.Status ?? '–')}
        {data.StatusUpdateDateTime ? ` since ${formatDate(data.StatusUpdateDateTime)}` : ''}
        {data.StatusReason?.length ? `: ${data.StatusReason.map(reasonWords).join('; ')}` : ''}{' '}
        <ExchangeLink id={read.exchangeId} index={0} />
      </p>
      <button
        type="button"
        className="link small"
        aria-expanded={showAnswer}
        onClick={() => setShowAnswer(!showAnswer)}
      >
        {showAnswer ? "Hide the bank's answer" : "Show the bank's answer"}
      </button>
      {showAnswer ? <Code value={toJson(read.data)} ariaLabel={`The bank's answer for consent ${id}`} /> : null}
    </div>
  )
}

/** Asks before revoking the consent (DELETE at the bank); `onDone` once revoked or kept. */
function RevokePrompt({ id, onDone }: { id: string; onDone: () => void }) {
  const deleteOp = useApp((s) => s.ops[`consents.delete:${id}`])
  const revokeConsent = useApp((s) => s.revokeConsent)
  return (
    <ConfirmPrompt
      label={`Confirm revoking consent ${id}`}
      confirmLabel={deleteOp?.busy ? 'Revoking…' : 'Revoke it'}
      cancelLabel="Keep it"
      danger
      busy={deleteOp?.busy}
      onConfirm={async () => {
        if (await revokeConsent(id)) onDone()
      }}
      onCancel={onDone}
    >
      <p>
        Revoke consent <code>{id}</code>? The console sends DELETE to the bank: every token of this consent stops
        working at once. To read or pay again, create a new consent and have the PSU authorise it.
      </p>
    </ConfirmPrompt>
  )
}

/**
 * One consent the console created: its status as the bank last gave it, permissions, expiry counting down,
 * the last SCA and its 90-day window, the PSU-absent allowance (account access consents), a GET at the bank,
 * and Revoke (DELETE) after a confirmation. Times are the environment's (the local sandbox's clock may be
 * ahead); an expired consent says so, offers no Revoke, and offers to start a new consent instead.
 */
export function ConsentCard({ consent }: { consent: ConsentRecordDto }) {
  const id = consent.consentId
  const read = useApp((s) => s.consentReads[id])
  const budget = useApp((s) => s.consentBudgets[id])
  const getOp = useApp((s) => s.ops[`consents.get:${id}`])
  const deleteOp = useApp((s) => s.ops[`consents.delete:${id}`])
  const readConsent = useApp((s) => s.readConsent)
  const loadBudget = useApp((s) => s.loadConsentBudget)
  const requestNewFlow = useApp((s) => s.requestNewFlow)
  const now = useEnvironmentNow(consent.environmentId)
  const [confirming, setConfirming] = useState(false)
  useEffect(() => {
    if (consent.kind === 'ais') void loadBudget(id)
  }, [consent.kind, id, loadBudget, consent.checkedAt])
  const status = badgeWords(consent, now)
  const expired = consentExpired(consent, now)
  return (
    <article
      className="card consent"
      aria-label={`Consent ${id}`}
      data-status={consent.status ?? ''}
      data-expired={expired}
    >
      <header className="step-head">
        <h3>
          {consent.kind === 'ais' ? 'Account access consent' : 'Payment consent'} <code>{id}</code>
        </h3>
        <CopyButton text={id} ariaLabel={`Copy consent id ${id}`} small />
        <StatusBadge status={status.tone} label={status.words} />
        <span className="spacer" />
        <button
          type="button"
          className="secondary small"
          disabled={getOp?.busy}
          onClick={() => void readConsent(id)}
          aria-label={`Read from the bank: consent ${id}`}
        >
          {getOp?.busy ? 'Reading…' : 'Read from the bank'}
        </button>
        {expired ? (
          <button
            type="button"
            className="small"
            onClick={() =>
              requestNewFlow({ kind: consent.kind, environmentId: consent.environmentId, clientId: consent.clientId })
            }
            aria-label={`Start a new consent for client ${consent.clientId}`}
          >
            Start a new consent
          </button>
        ) : null}
        {revocable(consent, now) ? (
          <button
            type="button"
            className="secondary small"
            disabled={deleteOp?.busy || confirming}
            onClick={() => setConfirming(true)}
            aria-label={`Revoke consent ${id}`}
          >
            Revoke
          </button>
        ) : null}
      </header>
      {confirming ? <RevokePrompt id={id} onDone={() => setConfirming(false)} /> : null}
      <ErrorPanel error={deleteOp?.error} title="The consent was not revoked" />
      <ErrorPanel error={getOp?.error} title="The bank's view of the consent could not be read" />
      <ConsentFacts consent={consent} now={now} />
      {read ? <BankAnswer id={id} read={read} /> : null}
      {consent.kind === 'ais' && budget?.length ? (
        <BudgetPanel budget={budget} environmentId={consent.environmentId} level={4} />
      ) : null}
    </article>
  )
}
