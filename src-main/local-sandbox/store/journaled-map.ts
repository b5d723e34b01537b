import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { JsonFile } from './json-file.ts'

/** The journal is folded into the snapshot once it is larger than this and than the snapshot. */
export const JOURNAL_COMPACT_MIN_BYTES = 1024 * 1024

export interface JournaledMapOptions<V> {
  /**
   * Entries worth keeping when the snapshot is rewritten (on load and on compaction); the others (expired
   * tokens, keys out of their window...) are dropped from memory and disk. Default: every entry.
   */
  keep?: (value: V, key: string) => boolean
  /** Journal size that may trigger a compaction (default JOURNAL_COMPACT_MIN_BYTES). */
  compactMinBytes?: number
}

/** The journal beside a snapshot `<name>.json`: `<name>.journal.jsonl`. */
export function journalPathOf(snapshotPath: string): string {
  return snapshotPath.replace(/\.json$/, '') + '.journal.jsonl'
}

/**
 * A string-keyed map of JSON values kept on disk as a snapshot plus a journal, so that a change costs
 * what it changes rather than a rewrite of everything:
 *
 * - the snapshot `<name>.json` is the whole map as one JSON object (what the sandbox always wrote there),
 *   written atomically (temporary file, then rename);
 * - the journal `<name>.journal.jsonl` gets one line per change, appended before the change is answered:
 *   `[key, value]` for a set, `[key]` for a delete.
 *
 * Loading reads the snapshot, replays the journal, then writes a fresh snapshot and removes the journal.
 * The journal is folded into the snapshot the same way once it outgrows both the snapshot and
 * `JOURNAL_COMPACT_MIN_BYTES` (1 MiB), so the files stay proportional to what is kept. Replaying is idempotent
 * (each line carries the whole value), so a crash between the snapshot's rename and the journal's
 * removal loses nothing. A crash in the middle of an append leaves a last line without its newline: it
 * is ignored (that change was never answered). Any other unreadable line stops the load with the path,
 * as a corrupt snapshot does.
 */
export class JournaledMap<V> {
  readonly #snapshot: JsonFile<Record<string, V>>
  readonly #journalPath: string
  readonly #keep?: (value: V, key: string) => boolean
  readonly #compactMinBytes: number
  readonly #entries: Map<string, V>
  #journalBytes = 0
  #snapshotBytes = 0

  constructor(
    readonly path: string,
    options: JournaledMapOptions<V> = {},
  ) {
    this.#snapshot = new JsonFile<Record<string, V>>(path, () => ({}))
    this.#journalPath = journalPathOf(path)
    this.#keep = options.keep
    this.#compactMinBytes = options.compactMinBytes ?? JOURNAL_COMPACT_MIN_BYTES
    this.#entries = new Map(Object.entries(this.#snapshot.read()))
    if (this.#replayJournal()) this.compact()
  }

  /** The entries (read-only: change them through `set` and `delete`). */
  get entries(): ReadonlyMap<string, V> {
    return this.#entries
  }

  get(key: string): V | undefined {
    return this.#entries.get(key)
  }

  /** Stores `value` under `key` and appends the change to the journal (`value` must be JSON). */
  set(key: string, value: V): void {
    this.#entries.set(key, value)
    this.#append(JSON.stringify([key, value]))
  }

  /** Removes `key`, journalling the removal when it was there. */
  delete(key: string): boolean {
    if (!this.#entries.delete(key)) return false
    this.#append(JSON.stringify([key]))
    return true
  }

  /**
   * Removes `key` from memory only: for an entry that is worthless once dropped (e.g. expired), which the
   * next compaction leaves out of the snapshot anyway through `keep`.
   */
  forget(key: string): void {
    this.#entries.delete(key)
  }

  /** Writes the kept entries as the new snapshot and empties the journal. */
  compact(): void {
    if (this.#keep) for (const [k, v] of this.#entries) if (!this.#keep(v, k)) this.#entries.delete(k)
    this.#snapshotBytes = this.#snapshot.write(Object.fromEntries(this.#entries))
    rmSync(this.#journalPath, { force: true })
    this.#journalBytes = 0
  }

  #append(line: string): void {
    const text = line + '\n'
    try {
      appendFileSync(this.#journalPath, text, { mode: 0o600 })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      mkdirSync(dirname(this.#journalPath), { recursive: true, mode: 0o700 })
      appendFileSync(this.#journalPath, text, { mode: 0o600 })
    }
    this.#journalBytes += Buffer.byteLength(text)
    if (this.#journalBytes > this.#compactMinBytes && this.#journalBytes > this.#snapshotBytes) this.compact()
  }

  /** Applies the journal's lines to the entries; true when there was a journal. */
  #replayJournal(): boolean {
    let text: string
    try {
      text = readFileSync(this.#journalPath, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw err
    }
    const lines = text.split('\n')
    // The part after the last newline: empty, or an append cut short by a crash (never answered).
    lines.pop()
    lines.forEach((line, i) => {
      if (line === '') return
      let change: unknown
      try {
        change = JSON.parse(line)
      } catch (err) {
        throw new Error(
          `${this.#journalPath} line ${i + 1} is not valid JSON (${(err as Error).message}). Fix or move the file aside; the sandbox will not overwrite it.`,
          { cause: err },
        )
      }
      if (!Array.isArray(change) || typeof change[0] !== 'string' || change.length > 2) {
        throw new Error(
          `${this.#journalPath} line ${i + 1} is not a change ([key, value] or [key]). Fix or move the file aside; the sandbox will not overwrite it.`,
        )
      }
      if (change.length === 2) this.#entries.set(change[0], change[1] as V)
      else this.#entries.delete(change[0])
    })
    return true
  }
}
