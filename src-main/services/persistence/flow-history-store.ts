import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { FlowState } from '../../contract/flows.ts'
import { AppError, isAppError } from '../../core/app-error.ts'
import type { QuietGate } from '../../http/quiet-time.ts'
import { writeFileAtomicAsync } from '../../plumbing/atomic-file.ts'
import { fileVersion } from './file-version.ts'
import { WriteBehind } from './write-behind.ts'

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
  /**
   * Keeps (or replaces) one flow's masked state: in the history at once (read, get), on disk behind the
   * caller (`flushed`); the oldest are dropped past `max`. A file of this flow that cannot be read throws.
   */
  put(flow: FlowState): void
  /** Resolves once every flow put so far is on disk (the console waits for it when it stops). */
  flushed(): Promise<void>
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

/** The flows' file names in `dir`; none when it is missing or not a folder (a write then reports why). */
function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json'))
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    throw err
  }
}

const byCreation = (a: FlowState, b: FlowState): number =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)

export interface FlowHistoryOptions {
  /** At most this many flows are kept (FLOW_HISTORY_MAX). */
  max?: number
  /** Told when a flow could not be written (the disk full, the folder not writable): it stays in memory. */
  onWriteError?: (flowId: string, err: Error) => void
  /**
   * When the writes run: the engine's quiet moments (`http/quiet-time.ts`: no request waits on them, and none
   * waits more than a second), or by default the next turn of the event loop.
   */
  writeWhen?: QuietGate
}

/**
 * The history in the folder `dir` (one JSON file per flow, 0600, each written atomically and behind the step
 * that changed it: the newest state of a flow is written once however many puts came meanwhile), read again
 * file by file when another process wrote it (the desktop app and the command line may share a data directory).
 */
export function createFlowHistoryStore(dir: string, options: FlowHistoryOptions = {}): FlowHistoryStore {
  return new FlowHistoryFolder(dir, options.max ?? FLOW_HISTORY_MAX, options.writeWhen, options.onWriteError)
}

class FlowHistoryFolder implements FlowHistoryStore {
  /** The files read or written, by name: their version (inode, mtime, size) and flow. */
  readonly #cache = new Map<string, { version: string; flow: FlowState }>()
  /**
   * Flows put and not yet written, by file name: the newest state of each, made into its history entry when it
   * is first read or written (not in `put`, which runs between a flow's requests).
   */
  readonly #pending = new Map<string, { put: FlowState; entry?: FlowState }>()
  /** Flows whose write failed (reported): listed from memory until the console stops. */
  readonly #unwritten = new Map<string, FlowState>()
  /** Each round writes the flows pending then, each flow's newest state once. */
  readonly #behind: WriteBehind

  constructor(
    readonly dir: string,
    private readonly max: number,
    writeWhen: QuietGate | undefined,
    private readonly onWriteError?: (flowId: string, err: Error) => void,
  ) {
    this.#behind = new WriteBehind(
      () => this.#pending.size > 0,
      () => this.#writeRound(),
      writeWhen,
    )
  }

  /** The flow in `name`, read again when its file changed; undefined when there is no such file. */
  #load(name: string): FlowState | undefined {
    const pending = this.#pending.get(name)
    if (pending) return (pending.entry ??= historyEntry(pending.put))
    const unwritten = this.#unwritten.get(name)
    if (unwritten) return unwritten
    const path = join(this.dir, name)
    const version = fileVersion(path)
    if (!version) {
      this.#cache.delete(name)
      return undefined
    }
    const cached = this.#cache.get(name)
    if (cached?.version === version) return cached.flow
    const flow = parse(path, readFileSync(path, 'utf8'))
    this.#cache.set(name, { version, flow })
    return flow
  }

  read(): FlowState[] {
    const names = new Set(filesIn(this.dir))
    for (const name of this.#cache.keys()) if (!names.has(name)) this.#cache.delete(name)
    for (const name of [...this.#pending.keys(), ...this.#unwritten.keys()]) names.add(name)
    return [...names].map((name) => this.#load(name)!).sort(byCreation)
  }

  get(flowId: string): FlowState | undefined {
    return this.#load(fileOf(flowId))
  }

  put(flow: FlowState): void {
    const name = fileOf(flow.id)
    // A file of this flow that cannot be read is refused, never written over (a flow still pending was checked).
    if (!this.#pending.has(name))
      try {
        this.#load(name)
      } catch (err) {
        if (isAppError(err)) throw err
        // The folder cannot be read (not a folder, no access): the write says so, to onWriteError.
      }
    this.#pending.set(name, { put: flow })
    this.#behind.start()
  }

  flushed(): Promise<void> {
    return this.#behind.flushed()
  }

  async #writeRound(): Promise<void> {
    for (const [name, pending] of [...this.#pending]) {
      this.#pending.delete(name)
      await this.#write(name, (pending.entry ??= historyEntry(pending.put)))
    }
    if (this.#cache.size > this.max) this.#prune()
  }

  async #write(name: string, flow: FlowState): Promise<void> {
    const path = join(this.dir, name)
    try {
      await writeFileAtomicAsync(path, `${JSON.stringify({ version: FLOW_HISTORY_VERSION, flow })}\n`, { mode: 0o600 })
      this.#unwritten.delete(name)
      // A newer state put while this one was written is still pending: the cache takes this one only if not.
      if (!this.#pending.has(name)) this.#cache.set(name, { version: fileVersion(path)!, flow })
    } catch (err) {
      if (!this.#pending.has(name)) this.#unwritten.set(name, flow)
      this.onWriteError?.(flow.id, err as Error)
    }
  }

  /** The oldest flows past `max` removed, their files and any write of theirs still to come. */
  #prune(): void {
    const all = this.read()
    for (const old of all.slice(0, Math.max(0, all.length - this.max))) {
      const name = fileOf(old.id)
      this.#pending.delete(name)
      this.#cache.delete(name)
      rmSync(join(this.dir, name), { force: true })
    }
  }
}
