import { existsSync, readFileSync } from 'node:fs'
import type { FlowState } from '../../contract/flows.ts'
import { AppError } from '../../core/app-error.ts'
import { backupPath, writeFileAtomic } from '../../plumbing/atomic-file.ts'
import { fileVersion } from './file-version.ts'

/** The history file's format; a file of a later version is refused (a newer console wrote it). */
export const FLOW_HISTORY_VERSION = 1
/** At most this many flows are kept (the oldest dropped first). */
export const FLOW_HISTORY_MAX = 500
/** A step output whose JSON is longer than this is not kept (the history names its size instead). */
export const FLOW_HISTORY_MAX_OUTPUT_CHARS = 64 * 1024

interface FlowHistoryDocument {
  version: number
  /** Masked flow states, oldest first. */
  flows: FlowState[]
}

/**
 * The flows of earlier runs, masked (as `flows-service` masks them before they leave the main side), kept
 * in the console's data directory so the flows list survives a reload and a restart.
 */
export interface FlowHistoryStore {
  /** Every kept flow, oldest first. A file that cannot be read throws STORE_ERROR (every time: never overwritten). */
  read(): FlowState[]
  /** Keeps (or replaces) one flow's masked state; the oldest are dropped past `max`. */
  put(flow: FlowState): void
  readonly path: string
}

function brokenFile(path: string, what: string, cause: string): AppError {
  const backup = backupPath(path)
  return new AppError('STORE_ERROR', {
    what: `The flow history ${path} ${what}.`,
    cause,
    fix: `The console leaves it as it is and keeps no flow history until it is mended: move it aside (the console then starts a new history)${existsSync(backup) ? `, or copy ${backup} (the version before the last write) over it` : ''}.`,
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

function parse(path: string, text: string): FlowState[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw brokenFile(path, 'is not JSON', (err as Error).message)
  }
  const doc = value as Partial<FlowHistoryDocument>
  if (!doc || typeof doc !== 'object' || typeof doc.version !== 'number' || !Array.isArray(doc.flows))
    throw brokenFile(path, 'is not a flow history', 'It lacks "version" or "flows".')
  if (doc.version > FLOW_HISTORY_VERSION)
    throw brokenFile(
      path,
      `is of version ${doc.version}`,
      `A newer console wrote it; this one reads version ${FLOW_HISTORY_VERSION}.`,
    )
  const bad = doc.flows.findIndex(
    (f) => !f || typeof f.id !== 'string' || typeof f.createdAt !== 'string' || !Array.isArray(f.steps),
  )
  if (bad >= 0)
    throw brokenFile(path, `holds a flow that is not one (entry ${bad})`, 'It lacks id, createdAt or steps.')
  return doc.flows
}

/** The history at `path` (JSON, 0600), read again when another process wrote it, written atomically with a backup. */
export function createFlowHistoryStore(path: string, max = FLOW_HISTORY_MAX): FlowHistoryStore {
  let stamp: string | undefined
  let flows: FlowState[] = []
  const read = (): FlowState[] => {
    const now = fileVersion(path)
    if (now === stamp) return flows
    flows = now ? parse(path, readFileSync(path, 'utf8')) : []
    stamp = now
    return flows
  }
  return {
    path,
    read: () => [...read()],
    put(flow) {
      const kept = historyEntry(flow)
      const next = read().filter((f) => f.id !== kept.id)
      next.push(kept)
      next.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      const doc: FlowHistoryDocument = { version: FLOW_HISTORY_VERSION, flows: next.slice(-max) }
      writeFileAtomic(path, `${JSON.stringify(doc)}\n`, { mode: 0o600 })
      flows = doc.flows
      stamp = fileVersion(path)
    },
  }
}
