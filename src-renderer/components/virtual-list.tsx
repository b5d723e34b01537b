import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'

/** Which rows to draw for a scroll position: the visible ones plus `overscan` on each side. */
export function visibleRange(
  scrollTop: number,
  viewport: number,
  rowHeight: number,
  count: number,
  overscan = 6,
): { start: number; end: number } {
  const first = Math.floor(scrollTop / rowHeight)
  const visible = Math.ceil(viewport / rowHeight)
  return { start: Math.max(0, first - overscan), end: Math.min(count, first + visible + overscan) }
}

/**
 * A list of fixed-height rows that draws only the rows in view, so thousands of exchanges stay fast.
 * Arrow keys move the selection.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  height,
  getKey,
  renderRow,
  label,
  selectedIndex,
  onMove,
}: {
  items: T[]
  rowHeight: number
  height: number
  getKey: (item: T) => string
  renderRow: (item: T, index: number) => ReactNode
  label: string
  selectedIndex?: number
  onMove?: (index: number) => void
}) {
  const ref = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const { start, end } = visibleRange(scrollTop, height, rowHeight, items.length)

  useEffect(() => {
    const el = ref.current
    if (!el || selectedIndex === undefined || selectedIndex < 0) return
    const top = selectedIndex * rowHeight
    if (top < el.scrollTop) el.scrollTop = top
    else if (top + rowHeight > el.scrollTop + height) el.scrollTop = top + rowHeight - height
  }, [selectedIndex, rowHeight, height])

  const onKeyDown = useCallback(
    (e: React.KeyboardEvent) => {
      if (!onMove || !items.length) return
      const current = selectedIndex ?? -1
      if (e.key === 'ArrowDown') onMove(Math.min(items.length - 1, current + 1))
      else if (e.key === 'ArrowUp') onMove(Math.max(0, current - 1))
      else return
      e.preventDefault()
    },
    [items.length, onMove, selectedIndex],
  )

  return (
    <div
      ref={ref}
      className="vlist"
      style={{ height }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
      role="list"
      aria-label={label}
      data-count={items.length}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>
        {items.slice(start, end).map((item, i) => (
          <div
            key={getKey(item)}
            role="listitem"
            className="vlist-row"
            style={{ position: 'absolute', top: (start + i) * rowHeight, height: rowHeight, left: 0, right: 0 }}
          >
            {renderRow(item, start + i)}
          </div>
        ))}
      </div>
    </div>
  )
}
