/**
 * Following the user: when their own action produces a result (a step run, a registration sent), the part
 * showing it is scrolled into view and takes the focus, so a keyboard or screen-reader user lands on it.
 */
import { useEffect, useRef } from 'react'
import { isTyping } from '../app/shortcuts.ts'
import { useApp } from '../store/store.ts'

/**
 * Brings `el` into view (when it is not already) and focuses it, unless the user is typing in another field
 * meanwhile: their field keeps the focus. Answers whether it moved the focus.
 */
export function focusResult(el: HTMLElement | null): boolean {
  if (!el?.isConnected) return false
  const active = el.ownerDocument.activeElement
  if (active && active !== el && isTyping(active)) return false
  const box = el.getBoundingClientRect()
  const view = el.ownerDocument.defaultView
  const height = view?.innerHeight ?? 0
  if (box.top < 0 || box.bottom > height) el.scrollIntoView?.({ block: 'start' })
  el.focus({ preventScroll: true })
  return true
}

/**
 * A ref for the heading (or panel, with `tabIndex={-1}`) of a result: it follows the store's `followTarget`
 * when the target is `key` (set before it mounted too: a result panel appears with it), then drops the target.
 */
export function useFollowResult<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null)
  const seq = useApp((s) => (s.followTarget?.key === key ? s.followTarget.seq : undefined))
  const followed = useApp((s) => s.followedResult)
  useEffect(() => {
    if (seq === undefined) return
    focusResult(ref.current)
    followed(seq)
  }, [seq, followed])
  return ref
}
