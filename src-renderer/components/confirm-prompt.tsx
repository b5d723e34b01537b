import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'

interface ConfirmPromptProps {
  /** The dialog's accessible name, e.g. "Confirm revoking consent X". */
  label: string
  children: ReactNode
  confirmLabel: string
  cancelLabel?: string
  /** The confirm button is styled as destructive. */
  danger?: boolean
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}

/**
 * The console's own confirmation, instead of the browser's `confirm()`: an alert dialog in the page, next to
 * what it asks about. Focus moves to its safe choice when it opens and stays inside it (Tab cycles between
 * its buttons), Escape cancels, and focus returns to where it was when it closes.
 */
export function ConfirmPrompt(props: ConfirmPromptProps) {
  const box = useRef<HTMLDivElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    cancel.current?.focus()
    return () => {
      if (before?.isConnected) before.focus()
    }
  }, [])
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      props.onCancel()
      return
    }
    if (e.key !== 'Tab') return
    const buttons = [...(box.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])]
    if (!buttons.length) return
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    const next = e.shiftKey ? (at <= 0 ? buttons.length - 1 : at - 1) : at === buttons.length - 1 ? 0 : at + 1
    e.preventDefault()
    buttons[next]!.focus()
  }
  return (
    <div className="confirm" role="alertdialog" aria-label={props.label} ref={box} onKeyDown={onKeyDown}>
      <div>{props.children}</div>
      <div className="actions">
        <button
          type="button"
          className={props.danger ? 'danger' : undefined}
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
        <button type="button" className="secondary" ref={cancel} onClick={props.onCancel}>
          {props.cancelLabel ?? 'Cancel'}
        </button>
      </div>
    </div>
  )
}

interface Question {
  label: string
  message: ReactNode
  confirmLabel: string
  danger?: boolean
}

/**
 * `confirm()` as a promise the caller awaits, drawn by the console: `const [ask, prompt] = useConfirm()`,
 * render `{prompt}` where the question belongs, and `if (await ask({...})) doIt()`.
 */
export function useConfirm(): [(q: Question) => Promise<boolean>, ReactNode] {
  const [open, setOpen] = useState<{ q: Question; answer: (yes: boolean) => void }>()
  const ask = useCallback(
    (q: Question) =>
      new Promise<boolean>((resolve) =>
        setOpen({
          q,
          answer: (yes) => {
            setOpen(undefined)
            resolve(yes)
          },
        }),
      ),
    [],
  )
  const prompt = open ? (
    <ConfirmPrompt
      label={open.q.label}
      confirmLabel={open.q.confirmLabel}
      danger={open.q.danger}
      onConfirm={() => open.answer(true)}
      onCancel={() => open.answer(false)}
    >
      <p>{open.q.message}</p>
    </ConfirmPrompt>
  ) : null
  return [ask, prompt]
}
