import { useEffect, useRef } from 'react'
import type { SecretItemDto } from '../../src-main/contract/exchange.ts'

const KIND: Record<SecretItemDto['kind'], string> = {
  'private-key': 'private key',
  token: 'token',
  code: 'code',
  credential: 'credential',
}

/**
 * The secrets of an exchange or a flow step, as the main side masked them, with one Reveal per item:
 * each asks the main side for that one value, shown in this window only, beside a "Mask again" button.
 * `onLeave` runs when the list leaves the screen (its view changed): the caller masks what it revealed.
 * Private keys are removed and never revealable.
 */
export function SecretsList({
  items,
  label,
  onReveal,
  onMask,
  onLeave,
  busy,
}: {
  items: SecretItemDto[] | undefined
  label: string
  onReveal: (ref: string) => void
  onMask: (ref: string) => void
  onLeave?: () => void
  busy?: boolean
}) {
  const leave = useRef(onLeave)
  leave.current = onLeave
  useEffect(() => () => leave.current?.(), [])
  if (!items?.length) return null
  return (
    <table className="table secrets" aria-label={label}>
      <tbody>
        {items.map((s) => (
          <tr key={`${s.where}-${s.ref}`} data-kind={s.kind} data-revealed={s.revealed}>
            <th scope="row">
              {s.name}{' '}
              <span className="muted small">
                {KIND[s.kind]} · {s.where}
              </span>
            </th>
            <td>
              <code className="wrap">{s.shown}</code>
            </td>
            <td>
              {s.revealable ? (
                s.revealed ? (
                  <span className="small">
                    <span className="muted">revealed here for 5 minutes at most (do not share this screen)</span>{' '}
                    <button
                      type="button"
                      className="secondary small"
                      onClick={() => onMask(s.ref)}
                      aria-label={`Mask ${s.name} (${s.where}) again`}
                    >
                      Mask again
                    </button>
                  </span>
                ) : (
                  <button
                    type="button"
                    className="secondary small"
                    disabled={busy}
                    onClick={() => onReveal(s.ref)}
                    aria-label={`Reveal ${s.name} (${s.where})`}
                  >
                    Reveal
                  </button>
                )
              ) : (
                <span className="muted small">never shown</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
