import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ConsentRecordDto } from '../../contract/consents.ts'
import { AppError } from '../../core/app-error.ts'
import { fileVersion } from './file-version.ts'
import { writeFileAtomic } from '../../plumbing/atomic-file.ts'

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

export interface ConsoleStateStore {
  read(): ConsoleStateDocument
  /** Reads the document as on disk now, applies `change`, writes it atomically. */
  update(change: (doc: ConsoleStateDocument) => void): ConsoleStateDocument
  readonly path: string
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

/**
 * The state document at `path` (JSON, 0600), read again whenever another process wrote it (one `stat`
 * per read), written atomically. A file that is not such a document is never overwritten: reading fails
 * naming it.
 */
export function createConsoleStateStore(path: string): ConsoleStateStore {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  let stamp: string | undefined
  let doc: ConsoleStateDocument = empty()
  const read = (): ConsoleStateDocument => {
    const now = fileVersion(path)
    if (now === stamp) return doc
    if (!now) {
      stamp = undefined
      doc = empty()
      return doc
    }
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
    doc = value
    stamp = now
    return doc
  }
  return {
    path,
    read: () => structuredClone(read()),
    update(change) {
      const current = read()
      const next = structuredClone(current)
      change(next)
      const text = `${JSON.stringify(next, null, '\t')}\n`
      // A change that changed nothing (a status seen again) writes nothing.
      if (stamp !== undefined && text === `${JSON.stringify(current, null, '\t')}\n`) return structuredClone(next)
      writeFileAtomic(path, text, { mode: 0o600, backup: false })
      doc = next
      stamp = fileVersion(path)
      return structuredClone(next)
    },
  }
}
