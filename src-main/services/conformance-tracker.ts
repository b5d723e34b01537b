/**
 * The engine's side of the bank-conformance lens: every exchange recorded is checked after the fact (never
 * before its answer reaches the flow or the inspector), its verdict kept beside the exchange log under the
 * same capacity, and the exchange's list row told its count of violations when the check ends.
 */
import type { ConformanceDto } from '../contract/exchange.ts'
import type { AnswerToCheck } from '../conformance/check-answer.ts'
import type { ConformanceLens } from '../conformance/conformance-lens.ts'

/** What the lens needs of one exchange, found when it is checked (its body read from the log then). */
export type AnswerSource = () => AnswerToCheck | { note: string }

const PENDING: ConformanceDto = { checked: false, violations: [], note: 'Being checked against the OB v4.0 schemas and the bank\'s rules.' }

export class ConformanceTracker {
  readonly #results = new Map<string, ConformanceDto>()
  readonly #pending = new Map<string, Promise<ConformanceDto>>()
  readonly #lens: ConformanceLens
  readonly #capacity: number
  readonly #onChecked: (id: string, result: ConformanceDto) => void
  #generation = 0

  constructor(lens: ConformanceLens, capacity: number, onChecked: (id: string, result: ConformanceDto) => void) {
    this.#lens = lens
    this.#capacity = capacity
    this.#onChecked = onChecked
  }

  /** Checks an exchange on a later turn (or in the lens's worker); `source` is read then, not now. */
  enqueue(id: string, source: AnswerSource): void {
    const generation = this.#generation
    const run = (async (): Promise<ConformanceDto> => {
      await new Promise((resolve) => setImmediate(resolve))
      const answer = source()
      return 'note' in answer ? { checked: false, violations: [], note: answer.note } : this.#lens.check(answer)
    })().then((result) => {
      this.#pending.delete(id)
      if (generation !== this.#generation) return result
      this.#results.set(id, result)
      if (this.#results.size > this.#capacity) this.#results.delete(this.#results.keys().next().value!)
      this.#onChecked(id, result)
      return result
    })
    this.#pending.set(id, run)
  }

  /** The verdict so far: the result, "being checked", or undefined for an exchange never given to the lens. */
  get(id: string): ConformanceDto | undefined {
    return this.#results.get(id) ?? (this.#pending.has(id) ? { ...PENDING, violations: [] } : undefined)
  }

  /** The verdict once the check ends (at once when it has). */
  async whenChecked(id: string): Promise<ConformanceDto | undefined> {
    return this.#results.get(id) ?? (await this.#pending.get(id)) ?? this.#results.get(id)
  }

  /** Resolves when every check started so far has ended. */
  async settled(): Promise<void> {
    while (this.#pending.size) await Promise.all([...this.#pending.values()])
  }

  clear(): void {
    this.#generation++
    this.#results.clear()
    this.#pending.clear()
  }

  close(): Promise<void> {
    return this.#lens.close()
  }
}
