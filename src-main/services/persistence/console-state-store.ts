import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { ConsentRecordDto } from '../../contract/consents.ts'
import { AppError } from '../../core/app-error.ts'
import type { QuietGate } from '../../http/quiet-time.ts'
import { deepFreeze, fileVersion } from './file-version.ts'
import { WriteBehind } from './write-behind.ts'
import { writeFileAtomicAsync } from '../../plumbing/atomic-file.ts'

/** A consent as kept: the DTO without the figures computed at read time. */
export type ConsentRecord = Omit<ConsentRecordDto, 'daysToExpiry' | 'scaWindowEndsAt'>

/**
 * What the console remembers between runs beside settings and clients: the consents it created, the
 * client marked current per environment, and the PSU-absent calls made (so the budget survives a restart).
 */
export interface ConsoleStateDocument {
  consents: ConsentRecord[]
  /** environment id → client id */
  currentClients: Record<string, string>
  /** budget key → times (ms since the epoch) of PSU-absent calls in the last 24 hours */
  psuAbsentCalls: Record<string, number[]>
  /** How PSU-absent calls are counted: as the bank does (consent × account × endpoint, the default) or per consent. */
  psuAbsentKeying?: 'consent-account-endpoint' | 'consent'
}

/**
 * The document as read: frozen, shared by every reader (never copied for one), its consent records too.
 */
export interface ConsoleStateView {
  readonly consents: ReadonlyArray<Readonly<ConsentRecord>>
  readonly currentClients: Readonly<Record<string, string>>
  readonly psuAbsentCalls: Readonly<Record<string, readonly number[]>>
  readonly psuAbsentKeying?: ConsoleStateDocument['psuAbsentKeying']
}

/**
 * The document as a change sees it: its lists and maps are copies the change may edit; the consent records
 * in them are the frozen ones, replaced rather than edited (`replaceConsent`), so a change copies only what
 * it changes, however many consents the console has made.
 */
export interface ConsoleStateDraft {
  consents: Array<Readonly<ConsentRecord>>
  currentClients: Record<string, string>
  psuAbsentCalls: Record<string, readonly number[]>
  psuAbsentKeying?: ConsoleStateDocument['psuAbsentKeying']
}

export interface ConsoleStateStore {
  read(): ConsoleStateView
  /**
   * Reads the document as it is now (on disk, or this store's own changes not yet written), applies
   * `change` to a draft of it, and writes it atomically behind the caller (`flushed`). Returns the document
   * after the change, frozen (to read from).
   */
  update(change: (doc: ConsoleStateDraft) => void): ConsoleStateView
  /** Resolves once every change made so far is on disk (or its write failed, told to `onWriteError`). */
  flushed(): Promise<void>
  readonly path: string
}

/**
 * In a draft, replaces the newest consent `match` picks with `patch` applied to it; returns the new record,
 * or undefined when none matched (nothing changes).
 */
export function replaceConsent(
  d: ConsoleStateDraft,
  match: (c: Readonly<ConsentRecord>) => boolean,
  patch: (c: Readonly<ConsentRecord>) => Partial<ConsentRecord>,
): Readonly<ConsentRecord> | undefined {
  const i = d.consents.findLastIndex(match)
  if (i < 0) return undefined
  const next = { ...d.consents[i]!, ...patch(d.consents[i]!) }
  d.consents[i] = next
  return next
}

const empty = (): ConsoleStateDocument => ({ consents: [], currentClients: {}, psuAbsentCalls: {} })

function isDocument(v: unknown): v is ConsoleStateDocument {
  const d = v as ConsoleStateDocument
  return (
    !!d &&
    typeof d === 'object' &&
    Array.isArray(d.consents) &&
    !!d.currentClients &&
    typeof d.currentClients === 'object' &&
    !!d.psuAbsentCalls &&
    typeof d.psuAbsentCalls === 'object'
  )
}

const serialize = (doc: ConsoleStateView) => `${JSON.stringify(doc, null, '\t')}\n`

/**
 * The state document at `path` (JSON, 0600), read again whenever another process wrote it (one `stat`
 * per read), written atomically. A file that is not such a document is never overwritten: reading fails
 * naming it.
 *
 * Changes are written behind the caller, off the event loop (a flow's step changes it, and a synchronous
 * flushed write cost the step several milliseconds), when `writeWhen` says (the engine's quiet moments): the
 * newest document is written once whatever the number of changes meanwhile, and until it is on disk this store
 * reads its own copy. A write that fails goes to `onWriteError` and the change stays in memory, written with
 * the next one.
 */
export function createConsoleStateStore(
  path: string,
  options: {
    onWriteError?: (err: Error) => void
    /** When the writes run: the engine's quiet moments (`http/quiet-time.ts`), or by default the next turn. */
    writeWhen?: QuietGate
  } = {},
): ConsoleStateStore {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  let stamp: string | undefined
  let doc: ConsoleStateView = empty()
  /** `doc` as written to the file, once known (a change is compared with it, and written as it is). */
  let text: string | undefined
  const textOfDoc = () => (text ??= serialize(doc))
  /** A change not yet handed to a write; a change whose write failed (a write waiting or in flight: `behind.busy`). */
  let dirty = false
  let unwritten = false
  const behind = new WriteBehind(
    () => dirty,
    async () => {
      dirty = false
      try {
        await writeFileAtomicAsync(path, textOfDoc(), { mode: 0o600 })
        unwritten = false
        if (!dirty) stamp = fileVersion(path)
      } catch (err) {
        unwritten = true
        options.onWriteError?.(err as Error)
      }
    },
    options.writeWhen,
  )
  const read = (): ConsoleStateView => {
    // This store's own changes are newer than the file until they are written.
    if (dirty || behind.busy || unwritten) return doc
    const now = fileVersion(path)
    if (now === stamp) return doc
    text = undefined
    if (!now) {
      stamp = undefined
      doc = empty()
      return doc
    }
    doc = deepFreeze(parseDocument(path))
    stamp = now
    return doc
  }
  return {
    path,
    read,
    update(change) {
      const current = read()
      const draft: ConsoleStateDraft = {
        ...current,
        consents: [...current.consents],
        currentClients: { ...current.currentClients },
        psuAbsentCalls: { ...current.psuAbsentCalls },
      }
      change(draft)
      // A change that changed nothing (a status seen again) writes nothing, once the file exists. The records a
      // change did not replace are the same objects, so comparing costs little however long the list.
      const pending = dirty || behind.busy || unwritten
      if ((stamp !== undefined || pending) && isDeepStrictEqual(draft, current)) return current
      doc = deepFreeze(draft)
      // Serialised when written (in a pause of the engine's requests), once for any number of changes.
      text = undefined
      dirty = true
      behind.start()
      return doc
    },
    flushed: () => behind.flushed(),
  }
}

/** The document on disk, or a STORE_ERROR naming the file and what to do with it. */
function parseDocument(path: string): ConsoleStateDocument {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new AppError('STORE_ERROR', {
      what: `The console state file ${path} could not be read.`,
      cause: (err as Error).message,
      fix: 'Fix the JSON by hand or move the file away (the console starts a new one; the consents it listed are then forgotten).',
    })
  }
  if (!isDocument(value))
    throw new AppError('STORE_ERROR', {
      what: `The console state file ${path} is not a state document.`,
      cause: 'It lacks consents, currentClients or psuAbsentCalls.',
      fix: 'Fix it by hand or move it away (the console never overwrites it).',
    })
  return value
}
