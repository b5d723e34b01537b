import { useState } from 'react'

/** Copies text to the clipboard and says so (or says it could not, so the user selects it by hand). */
export function CopyButton({
  text,
  label = 'Copy',
  ariaLabel,
  small,
}: {
  text: string
  label?: string
  ariaLabel?: string
  small?: boolean
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  return (
    <button
      type="button"
      className={small ? 'secondary small copy' : 'secondary'}
      aria-label={ariaLabel}
      title={ariaLabel}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text)
          setState('copied')
        } catch {
          setState('failed')
        }
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy blocked: select the text' : label}
    </button>
  )
}
