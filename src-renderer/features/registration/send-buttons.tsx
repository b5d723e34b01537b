import { preflightFresh } from '../discovery/preflight-panel.tsx'
import { useApp } from '../../store/store.ts'
import { useConfirm } from '../../components/confirm-prompt.tsx'

/**
 * Send (after the pre-flight) and, when the claims or the pre-flight fail, "Send anyway": an explicit,
 * confirmed send of a registration the checks refuse, to see the bank's answer.
 */
export function SendButtons({
  canSend,
  claimsFail,
  environmentId,
}: {
  canSend: boolean
  claimsFail: boolean
  environmentId: string
}) {
  const register = useApp((s) => s.register)
  const registerOp = useApp((s) => s.ops['registration.register'])
  const preflightOp = useApp((s) => s.ops['registration.preflight'])
  const claims = useApp((s) => s.registration.preview?.claims)
  const preflightFails = useApp(
    (s) => preflightFresh(s.preflight, environmentId, claims) && s.preflight!.checks.some((c) => !c.pass),
  )
  const busy = !!registerOp?.busy || !!preflightOp?.busy
  const [ask, prompt] = useConfirm()
  return (
    <>
      <button type="submit" disabled={!canSend || busy}>
        {preflightOp?.busy ? 'Checking discovery…' : 'Send registration'}
      </button>
      {claimsFail || preflightFails ? (
        <button
          type="button"
          className="danger"
          disabled={busy || !claims}
          onClick={async () => {
            const why = claimsFail ? 'fails the claim checks' : 'asks for what discovery does not advertise'
            const yes = await ask({
              label: 'Confirm sending the registration anyway',
              message: `This registration ${why}. Send it anyway, to see the bank's answer?`,
              confirmLabel: 'Send it anyway',
              danger: true,
            })
            if (yes) void register({ sendAnyway: true })
          }}
        >
          Send anyway…
        </button>
      ) : null}
      {prompt}
    </>
  )
}
