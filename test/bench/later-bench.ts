/**
 * THE SLOTS FOR P4, P5 AND P6: deferred ("later" in the benchmarks issue) until the parts they measure
 * settle. Each reports "not measured yet: <reason>" until its benchmark replaces the entry here.
 */
import type { Benchmark, BenchResult } from './lib/report.ts'

const SLOTS: BenchResult[] = [
  {
    id: 'P4',
    what: 'renderer initial JS before Monaco, gzip',
    target: '<= 350 KB gzip; compared with Monaco chunk',
    verdict: 'not measured',
    note:
      'not measured yet: deferred while the renderer (src-renderer, first version just landed) is still changing. Plug in: `electron-vite build`, gzip -9 each chunk of out/renderer/assets ' +
      'loaded by index.html before the Monaco chunk, against the Monaco chunk itself; and the time from web-host start to the first ' +
      'interactive screen in headless Chromium (Playwright, Debian chromium), median of runs.',
  },
  {
    id: 'P5',
    what: 'open a 10 MB JSON response in the inspector',
    target: 'vs a bare Monaco page',
    verdict: 'not measured',
    note: 'not measured yet: deferred while the inspector (src-renderer/features/inspector, editor/) is still changing. Plug in: time to a rendered, scrollable 10 MB JSON in the inspector vs the same model in a bare Monaco page, same Chromium run.',
  },
  {
    id: 'P6',
    what: '10,000 logged exchanges: memory, filter time',
    target: 'to be set with the exchange log',
    verdict: 'not measured',
    note: 'not measured yet: deferred until the exchange log (src-main/http/exchange-log.ts: record, list, get; no filter yet) has the filter the inspector uses. Plug in: heap and RSS after logging 10,000 exchanges, and the time to filter them, against a plain array of the same records.',
  },
]

export const laterBenchmark: Benchmark = {
  ids: ['P4', 'P5', 'P6'],
  title: 'P4-P6 (not built yet)',
  run: async () => SLOTS.map((s) => ({ ...s })),
}
