/**
 * The live sequence diagram of one flow: a small SVG drawn from the flow's exchanges (lazy-loaded with
 * this chunk). Each arrow opens its exchange in the inspector; failed calls are drawn in red with a
 * cross; the drawing downloads as a standalone SVG file.
 */
import { useEffect, useMemo, useRef } from 'react'
import { saveText } from '../../lib/download.ts'
import { useApp } from '../../store/store.ts'
import { buildSequence, LANES, type Lane, type SequenceArrow } from './sequence-model.ts'

const LANE_W = 190
const HEAD_H = 44
const ROW_H = 34
const PAD = 16
const COLOURS = ['--text', '--muted', '--border', '--fail', '--accent', '--panel']

const laneX = (lane: Lane) => PAD + LANES.findIndex((l) => l.id === lane) * LANE_W + LANE_W / 2

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** The SVG as a file: CSS variables replaced by the colours they have now, a background added. */
export function standaloneSvg(svg: SVGSVGElement): string {
  const style = getComputedStyle(svg)
  let text = new XMLSerializer().serializeToString(svg)
  for (const name of COLOURS) text = text.split(`var(${name})`).join(style.getPropertyValue(name).trim() || '#808080')
  if (!text.includes('xmlns="http://www.w3.org/2000/svg"'))
    text = text.replace('<svg', '<svg xmlns="http://www.w3.org/2000/svg"')
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`
}

function ArrowRow({ arrow, index, onOpen }: { arrow: SequenceArrow; index: number; onOpen: (id: string) => void }) {
  const y = HEAD_H + PAD + index * ROW_H + ROW_H / 2
  const x1 = laneX(arrow.from)
  const x2 = laneX(arrow.to)
  const dir = x2 >= x1 ? 1 : -1
  const colour = arrow.failed ? 'var(--fail)' : arrow.exchangeId ? 'var(--text)' : 'var(--accent)'
  const text = `${arrow.label}${arrow.answer ? ` → ${arrow.answer}` : ''}`
  const mid = (x1 + x2) / 2
  const open = arrow.exchangeId ? () => onOpen(arrow.exchangeId!) : undefined
  return (
    <g
      className={`seq-arrow${arrow.failed ? ' seq-failed' : ''}${open ? ' seq-link' : ''}`}
      data-failed={arrow.failed ? 'true' : 'false'}
      data-exchange-id={arrow.exchangeId}
      {...(open
        ? {
            role: 'button',
            tabIndex: 0,
            'aria-label': `Open exchange ${text} in the inspector`,
            onClick: open,
            onKeyDown: (e: React.KeyboardEvent) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault()
                open()
              }
            },
          }
        : { role: 'img', 'aria-label': text })}
    >
      <title>{text}</title>
      {/* A wide transparent band makes the arrow easy to hit. */}
      <rect
        x={Math.min(x1, x2)}
        y={y - ROW_H / 2}
        width={Math.max(Math.abs(x2 - x1), 1)}
        height={ROW_H}
        fill="transparent"
      />
      <line
        x1={x1}
        y1={y + 6}
        x2={x2 - dir * 7}
        y2={y + 6}
        stroke={colour}
        strokeWidth={1.5}
        strokeDasharray={arrow.exchangeId ? undefined : '5 3'}
      />
      <path d={`M ${x2} ${y + 6} l ${-dir * 8} -4 l 0 8 z`} fill={colour} />
      <text x={mid} y={y} textAnchor="middle" fontSize={11} fill={colour}>
        {clip(text, Math.floor(Math.abs(x2 - x1) / 6.2) + 10)}
      </text>
      {arrow.failed ? (
        <text
          x={x2 + dir * 6}
          y={y + 10}
          textAnchor={dir > 0 ? 'start' : 'end'}
          fontSize={13}
          fontWeight="bold"
          fill="var(--fail)"
        >
          ✕
        </text>
      ) : null}
    </g>
  )
}

/**
 * The flow and its arrows, drawn from its exchanges; reads the flow's exchanges when they are not loaded yet
 * or when its steps name some the list does not hold.
 */
function useSequence(flowId: string) {
  const flow = useApp((s) => s.flows[flowId])
  const exchanges = useApp((s) => s.flowExchanges[flowId])
  const load = useApp((s) => s.loadFlowExchanges)
  const env = useApp((s) => s.environments.find((e) => e.id === flow?.environmentId))
  const directoryUrl = useApp((s) => s.info?.localSandbox?.directoryUrl)
  // Exchange ids the steps name that the list does not hold yet (recorded before the diagram opened).
  // Read again once per new set of them (a cleared list would otherwise ask forever).
  const missing = useMemo(
    () =>
      flow && exchanges
        ? flow.steps
            .flatMap((s) => s.exchangeIds)
            .filter((id) => !exchanges.some((x) => x.id === id))
            .join(',')
        : '',
    [flow, exchanges],
  )
  const loaded = exchanges !== undefined
  useEffect(() => {
    if (!loaded || missing) void load(flowId)
  }, [flowId, load, loaded, missing])
  const arrows = useMemo(
    () => (flow ? buildSequence(flow, exchanges ?? [], env, directoryUrl) : []),
    [flow, exchanges, env, directoryUrl],
  )
  return { flow, arrows }
}

/** A lane's head (its title in a box) and its dashed life line down to the diagram's foot. */
function LaneHead({ lane, height }: { lane: (typeof LANES)[number]; height: number }) {
  const x = laneX(lane.id)
  return (
    <g aria-hidden="true">
      <rect
        x={x - LANE_W / 2 + 8}
        y={PAD / 2}
        width={LANE_W - 16}
        height={HEAD_H - 8}
        rx={6}
        fill="none"
        stroke="var(--border)"
      />
      <text
        x={x}
        y={PAD / 2 + (HEAD_H - 8) / 2 + 4}
        textAnchor="middle"
        fontSize={12}
        fontWeight="bold"
        fill="var(--text)"
      >
        {lane.title}
      </text>
      <line x1={x} y1={HEAD_H} x2={x} y2={height - PAD / 2} stroke="var(--border)" strokeDasharray="4 4" />
    </g>
  )
}

/** The diagram of one flow, redrawn as its exchanges and steps arrive. */
export default function SequenceDiagram({ flowId }: { flowId: string }) {
  const { flow, arrows } = useSequence(flowId)
  const open = useApp((s) => s.openExchange)
  const svgRef = useRef<SVGSVGElement>(null)
  if (!flow) return null
  const width = PAD * 2 + LANES.length * LANE_W
  const height = HEAD_H + PAD * 2 + Math.max(arrows.length, 1) * ROW_H
  const failed = arrows.filter((a) => a.failed).length
  return (
    <section className="card sequence" aria-label="Sequence diagram">
      <div className="actions">
        <span className="muted small">
          {arrows.length} messages{failed ? `, ${failed} failed` : ''} · click an arrow to open its exchange
        </span>
        <span className="spacer" />
        <button
          type="button"
          className="secondary small"
          disabled={!arrows.length}
          onClick={() =>
            svgRef.current &&
            saveText(`sequence-${flow.kind}-${flow.id}.svg`, standaloneSvg(svgRef.current), 'image/svg+xml')
          }
        >
          Export SVG
        </button>
      </div>
      <div className="sequence-scroll">
        <svg
          ref={svgRef}
          xmlns="http://www.w3.org/2000/svg"
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          fontFamily="system-ui, sans-serif"
          role="group"
          aria-label={`Sequence of the ${flow.kind.toUpperCase()} flow`}
          data-arrows={arrows.length}
        >
          <rect x={0} y={0} width={width} height={height} fill="var(--panel)" />
          {LANES.map((l) => (
            <LaneHead key={l.id} lane={l} height={height} />
          ))}
          {arrows.map((a, i) => (
            <ArrowRow key={a.exchangeId ?? `psu-${i}`} arrow={a} index={i} onOpen={(id) => void open(id)} />
          ))}
          {!arrows.length ? (
            <text x={width / 2} y={HEAD_H + PAD + ROW_H / 2} textAnchor="middle" fontSize={12} fill="var(--muted)">
              No exchange yet: run a step.
            </text>
          ) : null}
        </svg>
      </div>
    </section>
  )
}
