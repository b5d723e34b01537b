import { useEffect, useMemo, useState } from 'react'
import type { ExchangeFilter } from '../../../src-main/contract/exchange-summaries.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { saveText } from '../../lib/download.ts'
import { formatTime } from '../../lib/format.ts'
import { useHeight } from '../../lib/use-height.ts'
import { useApp } from '../../store/store.ts'
import { flowName } from '../flows/flow-name.ts'
import { ExchangeDetail } from './exchange-detail.tsx'
import { ExchangeList } from './exchange-list-view.tsx'

const STATUS_OPTIONS = optionsOf({
  '': 'Any status',
  '2xx': '2xx',
  '3xx': '3xx',
  '4xx': '4xx',
  '5xx': '5xx',
  error: 'No response',
})

/** The two exports of what the filters match: a HAR, and a Postman collection (both masked). */
function ExportButtons() {
  const flowId = useApp((s) => s.inspector.filter.flowId)
  const total = useApp((s) => s.inspector.total)
  const exportShownHar = useApp((s) => s.exportShownHar)
  const harOp = useApp((s) => s.ops['exchanges.har'])
  const exportShownPostman = useApp((s) => s.exportShownPostman)
  const postmanOp = useApp((s) => s.ops['exchanges.postman'])
  const exportName = flowId ? `flow-${flowId.slice(0, 8)}` : 'all'
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={!total || harOp?.busy}
        title="Every exchange the filters match, all pages, secrets masked (a Reveal never reaches an export)"
        onClick={() =>
          void exportShownHar().then((text) => {
            if (text !== undefined) saveText(`exchanges-${exportName}.har`, text, 'application/json')
          })
        }
      >
        Export HAR of what is shown
      </button>
      <button
        type="button"
        className="secondary"
        disabled={!total || postmanOp?.busy}
        title="The same exchanges as a Postman v2.1 collection: secrets masked (a Reveal never reaches an export); each request says what to sign again"
        onClick={() =>
          void exportShownPostman(`OB Console ${exportName}`).then((text) => {
            if (text !== undefined)
              saveText(`exchanges-${exportName}.postman_collection.json`, text, 'application/json')
          })
        }
      >
        Export Postman collection
      </button>
    </>
  )
}

/**
 * The path typed, sent as the filter a quarter of a second after the last key; a filter changed elsewhere
 * (cleared from the detail, set from a flow card) shows in the field.
 */
function usePathFilter() {
  const pathContains = useApp((s) => s.inspector.filter.pathContains)
  const setFilter = useApp((s) => s.setExchangeFilter)
  const [path, setPath] = useState(pathContains ?? '')
  useEffect(() => {
    setPath(pathContains ?? '')
  }, [pathContains])
  useEffect(() => {
    const id = setTimeout(() => {
      if ((pathContains ?? '') !== path) void setFilter({ pathContains: path || undefined })
    }, 250)
    return () => clearTimeout(id)
  }, [path, pathContains, setFilter])
  return [path, setPath] as const
}

/** The filters: flow, status, path, the console's own requests; and how many of the matches are shown. */
/**
 * The flow filter's choices: every flow the inspector has exchanges for (older ones than the flows list shows
 * too, fetched by id), and the flows listed, newest first, each named as the flows list names it.
 */
function useFlowOptions(selected: string | undefined): Array<{ value: string; label: string }> {
  const order = useApp((s) => s.flowOrder)
  const flows = useApp((s) => s.flows)
  const items = useApp((s) => s.inspector.items)
  const loadFlowsById = useApp((s) => s.loadFlowsById)
  const ids = useMemo(() => {
    const seen = new Set(order)
    for (const i of items) if (i.flowId) seen.add(i.flowId)
    if (selected) seen.add(selected)
    return [...seen]
  }, [order, items, selected])
  const missing = ids.filter((id) => !flows[id]).join(',')
  useEffect(() => {
    if (missing) void loadFlowsById(missing.split(','))
  }, [missing, loadFlowsById])
  return ids
    .map((id) => ({ id, flow: flows[id] }))
    .sort((a, b) => (b.flow?.createdAt ?? '').localeCompare(a.flow?.createdAt ?? ''))
    .map(({ id, flow }) => ({
      value: id,
      label: flow ? `${flowName(flow)} · ${formatTime(flow.createdAt)}` : id,
    }))
}

function ExchangeFilters() {
  const filter = useApp((s) => s.inspector.filter)
  const total = useApp((s) => s.inspector.total)
  const count = useApp((s) => s.inspector.items.length)
  const showByConsole = useApp((s) => s.inspector.showByConsole)
  const hiddenByConsole = useApp((s) => s.inspector.hiddenByConsole)
  const showConsoleExchanges = useApp((s) => s.showConsoleExchanges)
  const flowOptions = useFlowOptions(filter.flowId)
  const setFilter = useApp((s) => s.setExchangeFilter)
  const [path, setPath] = usePathFilter()
  return (
    <div className="filters" role="search" aria-label="Filter exchanges">
      <SelectField
        label="Flow"
        value={filter.flowId ?? ''}
        options={[{ value: '', label: 'All flows' }, ...flowOptions]}
        onChange={(flowId) => void setFilter({ flowId: flowId || undefined })}
      />
      <SelectField
        label="Status"
        value={filter.status === undefined ? '' : String(filter.status)}
        options={STATUS_OPTIONS}
        onChange={(status) => void setFilter({ status: (status || undefined) as ExchangeFilter['status'] })}
      />
      <TextField label="Path contains" value={path} onChange={setPath} placeholder="/transactions" />
      <label className="checkbox small">
        <input
          type="checkbox"
          checked={showByConsole}
          onChange={(e) => void showConsoleExchanges(e.currentTarget.checked)}
        />
        Show the console&apos;s own requests{showByConsole ? '' : ` (${hiddenByConsole} hidden)`}
      </label>
      <span className="muted small" aria-live="polite">
        {count} of {total} shown
      </span>
    </div>
  )
}

/** The list of exchanges (virtualised to the box's height), more to load, or what shows here when empty. */
function ListPane({ shown }: { shown: boolean }) {
  const total = useApp((s) => s.inspector.total)
  const count = useApp((s) => s.inspector.items.length)
  const load = useApp((s) => s.loadExchanges)
  const listOp = useApp((s) => s.ops['exchanges.list'])
  const [listBox, listHeight] = useHeight<HTMLDivElement>(560)
  return (
    <div className="inspector-list" hidden={!shown}>
      <div className="inspector-list-box" ref={listBox}>
        <ExchangeList height={listHeight} />
      </div>
      {count < total ? (
        <button type="button" className="secondary" onClick={() => void load(true)}>
          Load more
        </button>
      ) : null}
      {!count && !listOp?.busy ? (
        <p className="muted">No exchange yet. Every HTTP call a flow makes shows here as it happens.</p>
      ) : null}
    </div>
  )
}

/**
 * Every HTTP exchange, filterable and live, with the selected one in full. The view fills the window: the
 * list (which can be hidden) and the detail scroll apart, side by side from 1024 px wide; narrower, they stack.
 */
export function InspectorView() {
  const load = useApp((s) => s.loadExchanges)
  const clear = useApp((s) => s.clearExchanges)
  const listOp = useApp((s) => s.ops['exchanges.list'])
  const harOp = useApp((s) => s.ops['exchanges.har'])
  const postmanOp = useApp((s) => s.ops['exchanges.postman'])
  const [listShown, setListShown] = useState(true)
  useEffect(() => {
    void load()
  }, [load])
  return (
    <div className="view inspector">
      <header className="view-head">
        <h1>Inspector</h1>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            aria-pressed={!listShown}
            onClick={() => setListShown(!listShown)}
          >
            {listShown ? 'Hide the list' : 'Show the list'}
          </button>
          <button type="button" className="secondary" onClick={() => void load()}>
            Refresh
          </button>
          <ExportButtons />
          <button type="button" className="secondary" onClick={() => void clear()}>
            Clear log
          </button>
        </div>
      </header>
      <ExchangeFilters />
      <ErrorPanel error={listOp?.error} title="The exchange log could not be read" />
      <ErrorPanel error={harOp?.error} title="The HAR export failed" />
      <ErrorPanel error={postmanOp?.error} title="The Postman export failed" />
      <div className={`inspector-split${listShown ? '' : ' list-hidden'}`}>
        <ListPane shown={listShown} />
        <div className="inspector-detail">
          <ExchangeDetail />
        </div>
      </div>
    </div>
  )
}
