import { useEffect, useRef, useState } from 'react'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { QrCode } from '../../components/qr-code.tsx'
import { useApp } from '../../store/store.ts'
import { ReturnWayOn } from './return-way-on.tsx'

/** The field a returned URL is pasted into, handed to the flow; a refusal says its way on. */
function ReturnedUrlForm({ flowId, redirectUri }: { flowId: string; redirectUri: string }) {
  const captureRedirect = useApp((s) => s.captureRedirect)
  const captureOp = useApp((s) => s.ops[`flows.capture:${flowId}`])
  const clearOp = useApp((s) => s.clearOp)
  const [url, setUrl] = useState('')
  const field = useRef<HTMLInputElement>(null)
  const submit = async () => {
    const done = await captureRedirect(flowId, url.trim())
    if (done) setUrl('')
  }
  const pasteAgain = () => {
    setUrl('')
    clearOp(`flows.capture:${flowId}`)
    field.current?.focus()
  }
  return (
    <>
      <form
        className="capture-form"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <TextField
          label="Returned URL"
          hint={`The full address the browser returned to (starts with ${redirectUri}), fragment included.`}
          ref={field}
          value={url}
          onChange={setUrl}
          placeholder={`${redirectUri}#code=…&id_token=…&state=…`}
          spellCheck={false}
        />
        <button type="submit" disabled={!url.trim() || captureOp?.busy}>
          Hand the URL to the flow
        </button>
      </form>
      <ErrorPanel error={captureOp?.error} title="The URL was not taken" />
      <ReturnWayOn flowId={flowId} error={captureOp?.error} url={url.trim()} onPasteAgain={pasteAgain} />
    </>
  )
}

type Awaiting = NonNullable<FlowState['awaiting']>

/** Production: the bank app's deeplink as a QR code and as text. */
function DeeplinkWay({ deeplink }: { deeplink: string }) {
  return (
    <div className="deeplink">
      <p>
        Production: the PSU approves in the bank's app. Scan the QR code with the phone that has the app, or send the
        deeplink to it.
      </p>
      <div className="deeplink-row">
        <QrCode text={deeplink} label="QR code of the bank app deeplink" />
        <div className="deeplink-text">
          <Field label="Deeplink">{(id) => <textarea id={id} readOnly value={deeplink} rows={4} />}</Field>
          <CopyButton text={deeplink} label="Copy deeplink" />
        </div>
      </div>
    </div>
  )
}

/** The bank's authorisation page to open, how the return comes back, and the local sandbox's test PSUs. */
function AuthorisationUrlWay({
  flow,
  awaiting,
  authorisationUrl,
  upFront,
}: {
  flow: FlowState
  awaiting: Awaiting
  authorisationUrl: string
  upFront: boolean
}) {
  const capture = useApp((s) => s.flowInputs[flow.id]?.capture)
  const environment = useApp((s) => s.environments.find((e) => e.id === flow.environmentId))
  return (
    <div>
      <p>
        <a className="button" href={authorisationUrl} target="_blank" rel="noopener noreferrer">
          Open the bank's authorisation page
        </a>{' '}
        <CopyButton text={authorisationUrl} label="Copy the URL" ariaLabel="Copy the authorisation URL" />
      </p>
      <p className="muted small">
        {capture === 'loopback'
          ? `It opens in a new tab; after the PSU approves, the bank redirects to ${awaiting.redirectUri}, where the console picks the code up by itself.`
          : capture === 'deeplink'
            ? `After the PSU approves, the bank redirects to ${awaiting.redirectUri}: the desktop app receives it through its own scheme; otherwise paste that URL ${upFront ? 'above' : 'below'}.`
            : `After the PSU approves, the bank redirects to ${awaiting.redirectUri}: copy the address the browser ends on and paste it ${upFront ? 'above' : 'below'}.`}
        {environment?.kind === 'local-sandbox'
          ? ' The local sandbox uses a certificate authority made on this machine: your browser may warn about it; continue to the page. Log in as one of its test PSUs below.'
          : ''}
      </p>
      {environment?.kind === 'local-sandbox' ? <TestPsuLogins environmentId={environment.id} /> : null}
    </div>
  )
}

/**
 * The flow waits for the PSU: where to send them and how their return comes back. The desktop app
 * opens its own authorisation window; the web host offers the bank's page in a new tab returning to the
 * loopback listener; production shows the bank app deeplink as text and QR code. A returned URL can
 * always be pasted: in the browser the field comes first, before the PSU is sent away, so the return is
 * never lost for want of a place to put it. Each refusal of a pasted URL says its way on.
 */
export function AwaitingPanel({ flow }: { flow: FlowState }) {
  const awaiting = flow.awaiting
  const host = useApp((s) => s.host)
  const capture = useApp((s) => s.flowInputs[flow.id]?.capture)
  if (!awaiting) return null
  const upFront = host === 'web'
  const form = <ReturnedUrlForm flowId={flow.id} redirectUri={awaiting.redirectUri} />
  return (
    <section className="awaiting" aria-label="Waiting for the PSU">
      <h3>Waiting for the PSU to authorise</h3>
      {upFront ? (
        <>
          <p className="small">
            {capture === 'loopback'
              ? "The bank returns to the console's listener, which takes the code by itself. If the browser ends anywhere else, paste the address it ended on here:"
              : capture === 'deeplink'
                ? `In the browser, the bank's return to ${awaiting.redirectUri} has nowhere to go (only the desktop app handles that scheme), and the browser may drop it without showing it: before sending the PSU, keep this field at hand and paste the ${awaiting.redirectUri}… address the bank redirected to (the browser's prompt to open it, or the developer tools' Network tab: the last redirect's Location). A loopback capture returns by itself.`
                : 'Paste here the full address the browser ends on after the PSU approves (fragment included):'}
          </p>
          {form}
        </>
      ) : null}
      {awaiting.deeplink ? (
        <DeeplinkWay deeplink={awaiting.deeplink} />
      ) : capture === 'auth-window' && host === 'electron' ? (
        <p>
          The bank's authorisation page is open in the console's authorisation window: log in there as the PSU and
          approve. The window closes by itself when the bank redirects back.
        </p>
      ) : awaiting.authorisationUrl ? (
        <AuthorisationUrlWay
          flow={flow}
          awaiting={awaiting}
          authorisationUrl={awaiting.authorisationUrl}
          upFront={upFront}
        />
      ) : null}
      {upFront ? null : form}
    </section>
  )
}

/** The local sandbox's test PSUs' logins, where its login page is reached (never for other environments). */
function TestPsuLogins({ environmentId }: { environmentId: string }) {
  const psus = useApp((s) => s.testPsus)
  const load = useApp((s) => s.loadTestPsus)
  useEffect(() => {
    void load(environmentId)
  }, [environmentId, load])
  if (!psus?.length) return null
  return (
    <table className="table" aria-label="Test PSU logins">
      <thead>
        <tr>
          <th>Test PSU</th>
          <th>Username</th>
          <th>Password</th>
        </tr>
      </thead>
      <tbody>
        {psus.map((p) => (
          <tr key={p.username}>
            <td>{p.name}</td>
            <td>
              <code>{p.username}</code> <CopyButton text={p.username} ariaLabel={`Copy username ${p.username}`} small />
            </td>
            <td>
              <code>{p.password}</code>{' '}
              <CopyButton text={p.password} ariaLabel={`Copy the password of ${p.username}`} small />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
