import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { FlowState } from '../../contract/flows.ts'
import { AppError } from '../../core/app-error.ts'
import { writeFileAtomic } from '../../plumbing/atomic-file.ts'
import { fileVersion } from './file-version.ts'

/** The history file's format; a file of a later version is refused (a newer console wrote it). */
export const FLOW_HISTORY_VERSION = 1
/** At most this many flows are kept (the oldest dropped first). */
export const FLOW_HISTORY_MAX = 500
/** A step output whose JSON is longer than this is not kept (the history names its size instead). */
export const FLOW_HISTORY_MAX_OUTPUT_CHARS = 64 * 1024

/** One kept flow's file: `<flow id>.json` in the history's folder. */
interface FlowHistoryFile {
  version: number
  /** The flow's masked state. */
  flow: FlowState
}

/**
 * The flows of earlier runs, masked (as `flows-service` masks them before they leave the main side), kept
 * in the console's data directory so the flows list survives a reload and a restart: one file per flow, so
 * keeping a step's result writes that flow alone, whatever the number of flows kept.
 */
export interface FlowHistoryStore {
  /** Every kept flow, oldest first. A file that cannot be read throws STORE_ERROR naming it (never overwritten). */
  read(): FlowState[]
  /** One kept flow; undefined when the history has none of this id. */
  get(flowId: string): FlowState | undefined
  /** Keeps (or replaces) one flow's masked state; the oldest are dropped past `max`. */
  put(flow: FlowState): void
  /** The history's folder. */
  readonly dir: string
}

function brokenFile(path: string, what: string, cause: string): AppError {
  return new AppError('STORE_ERROR', {
    what: `The flow history file ${path} ${what}.`,
    cause,
    fix: 'The console leaves it as it is and lists no flow history until it is mended: move the file aside (the console then lists the other flows; that one flow is no longer kept).',
  })
}

/** What a flow keeps in the history: its masked state, without what only a live run has. */
export function historyEntry(flow: FlowState): FlowState {
  const steps = flow.steps.map((s) => {
    const step = { ...s, ...(s.status === 'running' ? { status: 'idle' as const } : {}) }
    // The secrets' handles point into the live run; a kept flow has none to reveal.
    delete step.secrets
    delete step.progress
    if (step.output !== undefined) {
      const size = JSON.stringify(step.output).length
      if (size > FLOW_HISTORY_MAX_OUTPUT_CHARS)
        step.output = { omitted: `an output of ${size} characters is not kept in the flow history` }
    }
    return step
  })
  const kept: FlowState = { ...flow, steps }
  delete kept.awaiting
  return kept
}

function parse(path: string, text: string): FlowState {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw brokenFile(path, 'is not JSON', (err as Error).message)
  }
  const doc = value as Partial<FlowHistoryFile>
  if (!doc || typeof doc !== 'object' || typeof doc.version !== 'number')
    throw brokenFile(path, 'is not a kept flow', 'It lacks "version" or "flow".')
  if (doc.version > FLOW_HISTORY_VERSION)
    throw brokenFile(
      path,
      `is of version ${doc.version}`,
      `A newer console wrote it; this one reads version ${FLOW_HISTORY_VERSION}.`,
    )
  const f = doc.flow
  if (!f || typeof f.id !== 'string' || typeof f.createdAt !== 'string' || !Array.isArray(f.steps))
    throw brokenFile(path, 'is not a kept flow', 'Its "flow" lacks id, createdAt or steps.')
  return f
}

/** A flow's file name in the history's folder (any id is a safe name). */
const fileOf = (flowId: string): string => `${encodeURIComponent(flowId).replace(/\./g, '%2E')}.json`

const byCreation = (a: FlowState, b: FlowState): number =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)

/**
 * The history in the folder `dir` (one JSON file per flow, 0600, each written atomically), read again file by
 * file when another process wrote it (the desktop app and the command line may share a data directory).
 */
export function createFlowHistoryStore(dir: string, max = FLOW_HISTORY_MAX): FlowHistoryStore {
  /** The files read, by name: their version (inode, mtime, size) and flow. */
  const cache = new Map<string, { version: string; flow: FlowState }>()
  /** The flow in `name`, read again when its file changed; undefined when there is no such file. */
  const load = (name: string): FlowState | undefined => {
    const path = join(dir, name)
    const version = fileVersion(path)
    if (!version) {
      cache.delete(name)
      return undefined
    }
    const cached = cache.get(name)
    if (cached?.version === version) return cached.flow
    const flow = parse(path, readFileSync(path, 'utf8'))
    cache.set(name, { version, flow })
    return flow
  }
  const read = (): FlowState[] => {
    const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : []
    const present = new Set(names)
    for (const name of cache.keys()) if (!present.has(name)) cache.delete(name)
    return names.map((name) => load(name)!).sort(byCreation)
  }
  return {
    dir,
    read,
    get: (flowId) => load(fileOf(flowId)),
    put(flow) {
      const name = fileOf(flow.id)
      load(name) // a file of this flow that cannot be read is refused, never written over
      const kept = historyEntry(flow)
      const path = join(dir, name)
      const doc: FlowHistoryFile = { version: FLOW_HISTORY_VERSION, flow: kept }
      writeFileAtomic(path, `${JSON.stringify(doc)}\n`, { mode: 0o600, backup: false })
      cache.set(name, { version: fileVersion(path)!, flow: kept })
      if (cache.size <= max) return
      const all = read()
      for (const old of all.slice(0, Math.max(0, all.length - max))) {
        rmSync(join(dir, fileOf(old.id)), { force: true })
        cache.delete(fileOf(old.id))
      }
    },
  }
}
