import { useLayoutEffect, useRef, useState } from 'react'

/**
 * The height in pixels of an element, followed as it changes (ResizeObserver): for a virtual list that fills
 * the room its layout gives it. `fallback` until measured, and where ResizeObserver does not exist.
 *
 * @example const [ref, height] = useHeight<HTMLDivElement>(560); <div ref={ref}><VirtualList height={height} … /></div>
 */
export function useHeight<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null)
  const [height, setHeight] = useState(fallback)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const update = () => {
      const h = Math.floor(el.clientHeight)
      if (h > 0) setHeight(h)
    }
    update()
    const observer = new ResizeObserver(update)
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return [ref, height] as const
}
