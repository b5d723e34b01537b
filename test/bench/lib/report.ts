/**
 * What a benchmark hands back, the table `npm run bench` prints and the shape of `test/bench/results.json`.
 */

/**
 * pass / fail against the target; `not measured` when a side of the comparison does not exist yet (with
 * the reason, never a made-up figure); `info` for context rows with no target of their own; `error`
 * when the benchmark could not run (the message says why).
 */
export type Verdict = 'pass' | 'fail' | 'not measured' | 'info' | 'error'

export interface BenchResult {
  /** P1 ... P6, with a suffix for context rows (`P2-floor`). */
  id: string
  what: string
  /** The measured figure as printed: median (min-max) with its unit. */
  figure?: string
  /** The floor or peer measured in the same run, as printed. */
  peer?: string
  /** figure / peer, the number the target is about. */
  ratio?: number
  ratioText?: string
  target: string
  verdict: Verdict
  /** Why a figure is missing, or what a reader must know about it. */
  note?: string
  /** Raw samples and settings, written to results.json. */
  data?: Record<string, unknown>
}

/** A benchmark module: runs and returns one result per row. */
export interface Benchmark {
  ids: string[]
  title: string
  run(opts: BenchOptions): Promise<BenchResult[]>
}

export interface BenchOptions {
  /** Write V8 CPU profiles of the servers under test into this directory (`--cpu-prof`). */
  profileDir?: string
  /** Progress lines (stderr). */
  log(line: string): void
}

function cell(text: string | undefined, width: number): string {
  const t = text ?? ''
  return t.length > width ? `${t.slice(0, width - 1)}…` : t.padEnd(width)
}

/** The results as a fixed-width table, one row per result, notes under it. */
export function formatTable(results: BenchResult[]): string {
  const cols: Array<[string, number, (r: BenchResult) => string | undefined]> = [
    ['Id', 9, (r) => r.id],
    ['What', 38, (r) => r.what],
    ['Figure', 30, (r) => r.figure],
    ['Floor / peer', 30, (r) => r.peer],
    ['Ratio', 22, (r) => r.ratioText ?? (r.ratio !== undefined ? r.ratio.toFixed(2) : undefined)],
    ['Target', 24, (r) => r.target],
    ['Result', 12, (r) => r.verdict],
  ]
  const line = (values: Array<string | undefined>) =>
    cols
      .map(([, w], i) => cell(values[i], w))
      .join(' ')
      .trimEnd()
  const out = [line(cols.map(([h]) => h)), cols.map(([, w]) => '-'.repeat(w)).join(' ')]
  for (const r of results) out.push(line(cols.map(([, , get]) => get(r))))
  const notes = results.filter((r) => r.note)
  if (notes.length) {
    out.push('')
    for (const r of notes) out.push(`${r.id}: ${r.note}`)
  }
  return out.join('\n')
}
