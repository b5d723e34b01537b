/**
 * THE SLOTS FOR P4, P5 AND P6: they need parts of the console that are being built. Each reports
 * "not measured yet: <reason>" until its benchmark replaces the entry here.
 */
import type { Benchmark, BenchResult } from './lib/report.ts'

const SLOTS: BenchResult[] = [
  {
    id: 'P4',
    what: 'renderer initial JS before Monaco, gzip',
    target: '<= 350 KB gzip; compared with Monaco chunk',
    verdict: 'not measured',
    note:
      'not measured yet: the renderer (src-renderer) is being built. Plug in: `electron-vite build`, gzip -9 each chunk of out/renderer/assets ' +
      'loaded by index.html before the Monaco chunk, against the Monaco chunk itself; and the time from web-host start to the first ' +
      'interactive screen in headless Chromium (Playwright, Debian chromium), median of runs.',
  },
  {
    id: 'P5',
    what: 'open a 10 MB JSON response in the inspector',
    target: 'vs a bare Monaco page',
    verdict: 'not measured',
    note: 'not measured yet: the inspector (src-renderer features/inspector, editor/) does not exist. Plug in: time to a rendered, scrollable 10 MB JSON in the inspector vs the same model in a bare Monaco page, same Chromium run.',
  },
  {
    id: 'P6',
    what: '10,000 logged exchanges: memory, filter time',
    target: 'to be set with the exchange log',
    verdict: 'not measured',
    note: 'not measured yet: the exchange log (src-main/http) does not exist. Plug in: heap and RSS after logging 10,000 exchanges, and the time to filter them, against a plain array of the same records.',
  },
]

export const laterBenchmark: Benchmark = {
  ids: ['P4', 'P5', 'P6'],
  title: 'P4-P6 (not built yet)',
  run: async () => SLOTS.map((s) => ({ ...s })),
}
