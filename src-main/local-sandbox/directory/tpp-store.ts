import type { BankDocuments } from '../store/bank-documents.ts'
import { SOFTWARE_ID_PATTERN } from './onboard-input.ts'
import type { SoftwareStatementRecord } from './types.ts'

interface CacheEntry {
  /** `performance.now()` when the record was read. */
  readAt: number
  record: SoftwareStatementRecord
}

/**
 * How long a record already read is used without reading it again, ms. Every bearer request looks up its
 * client's software statement (for the client's keys), so a read per lookup was a measurable part of a
 * data request; a change made by another process (or instance) to a TPP this one has already read is
 * seen within this time. A TPP this process has not read yet (one onboarded by another process or
 * instance) is always looked for in the store, so it is seen at once.
 */
export const TPP_RECHECK_MS = 1000

const PREFIX = 'directory/tpps/'
const DOCUMENT = /^directory\/tpps\/([0-9A-Za-z]{1,22})\.json$/

/**
 * The directory's TPPs: one bank document per software statement, `directory/tpps/<softwareId>.json`
 * (a file in an embedded data directory, a row in a database store), holding public parts only (no
 * private key). An unknown software id is always looked for in the store, so a TPP onboarded elsewhere
 * is known at once; a record already read is used for TPP_RECHECK_MS, then read again; one changed
 * through this store is seen at once.
 */
export class TppStore {
  readonly #cache = new Map<string, CacheEntry>()

  constructor(private readonly docs: BankDocuments) {}

  /** Where the records live, for messages. */
  get location(): string {
    return this.docs.locate(PREFIX).where
  }

  #parse(softwareId: string, text: string): SoftwareStatementRecord {
    const name = `${PREFIX}${softwareId}.json`
    let record: SoftwareStatementRecord | undefined
    try {
      record = JSON.parse(text) as SoftwareStatementRecord
    } catch (err) {
      throw new Error(
        `${this.docs.locate(name).where} is not valid JSON (${(err as Error).message}); fix or delete it`,
        { cause: err },
      )
    }
    if (!record || record.softwareId !== softwareId)
      throw new Error(
        `${this.docs.locate(name).where} does not hold the software statement ${softwareId}; fix or delete it`,
      )
    this.#cache.set(softwareId, { readAt: performance.now(), record })
    return record
  }

  /** The record, or undefined when the software id is unknown (or not a software id at all). Throws when the record is corrupt. */
  async get(softwareId: string): Promise<SoftwareStatementRecord | undefined> {
    if (!SOFTWARE_ID_PATTERN.test(softwareId)) return undefined
    const cached = this.#cache.get(softwareId)
    if (cached && performance.now() - cached.readAt < TPP_RECHECK_MS) return cached.record
    const text = await this.docs.read(`${PREFIX}${softwareId}.json`)
    if (text === undefined) {
      this.#cache.delete(softwareId)
      return undefined
    }
    return this.#parse(softwareId, text)
  }

  async put(record: SoftwareStatementRecord): Promise<void> {
    await this.docs.write(`${PREFIX}${record.softwareId}.json`, JSON.stringify(record, null, 2) + '\n')
    this.#cache.delete(record.softwareId)
  }

  /** Every software statement in the directory (records that cannot be read are skipped and reported to `onError`). */
  async all(onError: (message: string) => void = () => {}): Promise<SoftwareStatementRecord[]> {
    const out: SoftwareStatementRecord[] = []
    for (const { name, text } of await this.docs.list(PREFIX)) {
      const m = DOCUMENT.exec(name)
      if (!m) continue
      try {
        out.push(this.#parse(m[1]!, text))
      } catch (err) {
        onError((err as Error).message)
      }
    }
    return out
  }

  /** The software statements of one organisation. */
  async byOrg(orgId: string, onError?: (message: string) => void): Promise<SoftwareStatementRecord[]> {
    return (await this.all(onError)).filter((r) => r.orgId === orgId)
  }
}
