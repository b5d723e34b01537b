/**
 * P4, P5 and P6: the console's renderer in headless Chromium (Debian's, through Playwright), built into a
 * temporary directory as `npm run build` builds it.
 *
 *  - P4: the JavaScript index.html loads before any lazy import (gzip -9), against Monaco's chunk; and
 *    the time from starting `ob-console serve --port 0 --json --data-dir <tmp>` to the first interactive
 *    screen (the "Main" navigation visible), against a bare Node HTTP server and a one-element page,
 *    started and opened the same way, alternating.
 *  - P5: opening a 10 MB JSON response in the inspector (click on the exchange to its text rendered by
 *    Monaco; long tasks in between), against a bare Monaco page (Vite-bundled, the same editor options)
 *    fetching and showing the same bytes; Monaco already loaded in both, opens alternating.
 *  - P6: 10,000 exchanges in the log (the P1 journey's mix): the main side's memory for them against a
 *    plain array of the same bytes, the renderer's JS heap with the inspector open, and the time to filter
 *    the list (the exchanges.list request to the list rendered; the input's 250 ms debounce is reported
 *    apart) against a plain Array.filter.
 */
import { createServer, type Server } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import type { Benchmark, BenchResult } from './lib/report.ts'
import { REPO_ROOT } from './lib/sandbox-process.ts'
import { formatSpread, spread } from './lib/stats.ts'
import type { BodyStats } from '../../src-main/http/exchange-log.ts'
import { bigBody } from './ui/bank-data.ts'
import { LONG_TASK_PROBE, jsHeapUsed, launchChromium, longTasksBetween, pageNow, type LongTasks } from './ui/browser.ts'
import { buildConsole, buildMonacoFloor, bundleSizes } from './ui/build.ts'
import { newPageOpener, spawnWithLine, timeFirstScreen } from './ui/processes.ts'

const INITIAL_JS_TARGET_KB = 350
const P4_RUNS = 3
const P5_OPENS = 9
const P5_REST_MS = 1000
const P5_TARGET_MS = 1500
const P5_RATIO_TARGET = 1.5
const P6_MEMORY_TARGET_MB = 300
const P6_FILTER_TARGET_MS = 100
const FILTER_DEBOUNCE_MS = 250
const VIEWPORT = { width: 1440, height: 1000 }

const kb = (bytes: number) => (bytes / 1024).toFixed(0)
const mbText = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

async function openInspector(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await mainNav(page).waitFor({ state: 'visible', timeout: 60_000 })
  await mainNav(page).getByRole('button', { name: 'Inspector' }).click()
  await page.getByRole('list', { name: 'Exchanges' }).waitFor({ state: 'visible', timeout: 60_000 })
}

/**
 * The page's document as the in-page predicates below use it (the bench compiles without DOM types).
 * Those predicates run in the page (the console's CSP forbids string evaluation, so they are functions)
 * and declare no named function (tsx would wrap it in a helper the page does not have).
 */
interface PageDocument {
  document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> }
}

/** Waits (checking every frame) until a "Response body" editor shows `text`; resolves the page's Date.now() then. */
async function bodyShows(page: Page, text: string, timeout = 60_000): Promise<number> {
  const handle = await page.waitForFunction(
    (t) =>
      Array.from(
        (globalThis as unknown as PageDocument).document.querySelectorAll('[aria-label="Response body"] .view-lines'),
      ).some((e) => (e.textContent ?? '').includes(t)) && Date.now(),
    text,
    { polling: 'raf', timeout },
  )
  return (await handle.jsonValue()) as number
}

/** Waits until the first rows of the exchange list all show `text`; resolves the page's Date.now() then. */
async function rowsShow(page: Page, text: string): Promise<number> {
  const handle = await page.waitForFunction(
    (t) => {
      const rows = Array.from(
        (globalThis as unknown as PageDocument).document.querySelectorAll('button.exchange-row'),
      ).slice(0, 20)
      return rows.length > 0 && rows.every((r) => (r.textContent ?? '').includes(t)) && Date.now()
    },
    text,
    { polling: 'raf', timeout: 30_000 },
  )
  return (await handle.jsonValue()) as number
}

// ---------------------------------------------------------------- P4

async function p4(browser: Browser, rendererDir: string, log: (l: string) => void): Promise<BenchResult[]> {
  const sizes = bundleSizes(rendererDir)
  const firstScreen = async (kind: 'console' | 'floor') => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ob-bench-p4-'))
    try {
      // A new browser context per start: the first visit of a browser that never saw the console.
      return await timeFirstScreen(
        newPageOpener(() => browser.newPage({ viewport: VIEWPORT })),
        kind,
        {
          bin: join(REPO_ROOT, 'bin/ob-console.js'),
          dataDir,
          rendererDir,
        },
      )
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const runs: Record<'console' | 'floor', Array<{ totalMs: number; serverMs: number; pageMs: number }>> = {
    console: [],
    floor: [],
  }
  for (let i = 0; i < P4_RUNS; i++) {
    for (const kind of i % 2 === 0 ? (['console', 'floor'] as const) : (['floor', 'console'] as const))
      runs[kind].push(await firstScreen(kind))
    log(
      `ui: P4 run ${i + 1}/${P4_RUNS}: console ${runs.console.at(-1)!.totalMs.toFixed(0)} ms (server ${runs.console.at(-1)!.serverMs.toFixed(0)}), floor ${runs.floor.at(-1)!.totalMs.toFixed(0)} ms`,
    )
  }
  const monaco = sizes.monaco[0]
  const c = spread(runs.console.map((r) => r.totalMs))
  const f = spread(runs.floor.map((r) => r.totalMs))
  const cs = spread(runs.console.map((r) => r.serverMs))
  const cp = spread(runs.console.map((r) => r.pageMs))
  const monacoText = monaco ? `Monaco chunk ${kb(monaco.gzip)} KB gzip` : 'no Monaco chunk found'
  return [
    {
      id: 'P4',
      what: 'renderer initial JS before Monaco, gzip',
      figure: `${kb(sizes.initialGzip)} KB gzip`,
      peer: monacoText,
      ...(monaco
        ? {
            ratio: sizes.initialGzip / monaco.gzip,
            ratioText: `${(sizes.initialGzip / monaco.gzip).toFixed(2)} of Monaco's`,
          }
        : {}),
      target: `<= ${INITIAL_JS_TARGET_KB} KB gzip`,
      verdict: sizes.monacoInInitial ? 'fail' : sizes.initialGzip <= INITIAL_JS_TARGET_KB * 1024 ? 'pass' : 'fail',
      note: `Initial: ${sizes.initial.map((x) => `${x.file} ${kb(x.bytes)} KB (${kb(x.gzip)} KB gzip)`).join(', ')}${sizes.monacoInInitial ? '; MONACO IS IN THE INITIAL JS' : '; no Monaco in it'}. Loaded with the first code view: ${sizes.monaco.map((x) => `${x.file} ${kb(x.bytes)} KB (${kb(x.gzip)} KB gzip)`).join(', ')}; workers ${sizes.workers.map((x) => `${x.file} ${kb(x.gzip)} KB gzip`).join(', ')}.`,
      data: { sizes },
    },
    {
      id: 'P4-tti',
      what: 'serve start to first interactive screen',
      figure: `${formatSpread(c, 0, ' ms')} n=${c.n}`,
      peer: `${formatSpread(f, 0, ' ms')} bare server`,
      ratio: c.median / f.median,
      ratioText: `+${(c.median - f.median).toFixed(0)} ms`,
      target: '(context for P4)',
      verdict: 'info',
      note: `From spawning \`ob-console serve --port 0 --json --data-dir <new tmp>\` (which starts the embedded local sandbox, creating its PKI in the new data dir) to the "Main" navigation visible in Chromium: ${formatSpread(cs, 0, ' ms')} until the server printed its URL, then ${formatSpread(cp, 0, ' ms')} for the page. Floor: plain node serving a one-element page, same steps.`,
      data: { runs },
    },
  ]
}

// ---------------------------------------------------------------- P5

interface Open {
  ms: number
  longTasks?: LongTasks
}

function serveDir(dir: string, extra: Record<string, Buffer>): Promise<Server> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.ttf': 'font/ttf',
    '.json': 'application/json',
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const name = path === '/' ? 'index.html' : path.slice(1)
    const body =
      extra[name] ??
      (() => {
        const file = normalize(join(dir, name))
        if (!file.startsWith(dir)) return undefined
        try {
          return statSync(file).isFile() ? readFileSync(file) : undefined
        } catch {
          return undefined
        }
      })()
    if (!body) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, {
      'content-type': types[extname(name)] ?? 'application/octet-stream',
      'content-length': body.length,
    })
    res.end(body)
  })
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)))
}

async function p5(
  browser: Browser,
  rendererDir: string,
  work: string,
  log: (l: string) => void,
): Promise<BenchResult[]> {
  const floorDir = await buildMonacoFloor(join(work, 'monaco-floor'))
  const big = bigBody()
  const floorServer = await serveDir(floorDir, { 'big.json': big })
  const host = await spawnWithLine([
    '--import',
    'tsx',
    join(REPO_ROOT, 'test/bench/ui/console-host.ts'),
    'p5',
    rendererDir,
  ])
  const consolePage = await browser.newPage({ viewport: VIEWPORT })
  const floorPage = await browser.newPage({ viewport: VIEWPORT })
  try {
    // The console: the inspector open, Monaco loaded by opening the small answer first (timed: cold).
    await consolePage.addInitScript(LONG_TASK_PROBE)
    await openInspector(consolePage, String(host.info.url))
    const row = (text: string) => consolePage.locator('button.exchange-row', { hasText: text }).first()
    const c0 = Date.now()
    await row('balances').click()
    const coldMs = (await bodyShows(consolePage, 'Balance')) - c0
    // The floor: the bare Monaco page loaded (Monaco parsed), nothing shown yet.
    await floorPage.addInitScript(LONG_TASK_PROBE)
    await floorPage.goto(`http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`)
    await floorPage.waitForFunction(() => (globalThis as unknown as { floorReady?: boolean }).floorReady === true)

    const opens: Record<'console' | 'floor', Open[]> = { console: [], floor: [] }
    // A second of rest before each open: an open leaves background work (the bare page's JSON worker over
    // the 10 MB text, the collection of the model it replaced) that otherwise lands in the next open's time,
    // whichever page that is; without it, each side's figure depended on which went first.
    const rest = () => new Promise((r) => setTimeout(r, P5_REST_MS))
    const openConsole = async (): Promise<Open> => {
      await rest()
      const p0 = await pageNow(consolePage)
      const t0 = Date.now()
      await row('acc-big/').click()
      const t1 = await bodyShows(consolePage, 'Transaction')
      const longTasks = await longTasksBetween(consolePage, p0, await pageNow(consolePage))
      await row('balances').click()
      await bodyShows(consolePage, 'Balance')
      return { ms: t1 - t0, ...(longTasks ? { longTasks } : {}) }
    }
    const openFloor = async (): Promise<Open> => {
      await rest()
      const p0 = await pageNow(floorPage)
      const t0 = Date.now()
      await floorPage.click('#open')
      const t1 = await bodyShows(floorPage, 'Transaction')
      const longTasks = await longTasksBetween(floorPage, p0, await pageNow(floorPage))
      return { ms: t1 - t0, ...(longTasks ? { longTasks } : {}) }
    }
    for (let i = 0; i < P5_OPENS; i++) {
      if (i % 2 === 0) {
        opens.console.push(await openConsole())
        opens.floor.push(await openFloor())
      } else {
        opens.floor.push(await openFloor())
        opens.console.push(await openConsole())
      }
      log(
        `ui: P5 open ${i + 1}/${P5_OPENS}: console ${opens.console.at(-1)!.ms.toFixed(0)} ms, bare Monaco ${opens.floor.at(-1)!.ms.toFixed(0)} ms`,
      )
    }
    const c = spread(opens.console.map((o) => o.ms))
    const f = spread(opens.floor.map((o) => o.ms))
    const pairs = spread(opens.console.map((o, i) => o.ms / opens.floor[i]!.ms))
    const tasks = (os: Open[]) => {
      const withTasks = os.filter((o) => o.longTasks)
      if (!withTasks.length) return 'long tasks not reported'
      const n = spread(withTasks.map((o) => o.longTasks!.count))
      const max = spread(withTasks.map((o) => o.longTasks!.maxMs))
      const total = spread(withTasks.map((o) => o.longTasks!.totalMs))
      return `${n.median} long tasks (longest ${max.median.toFixed(0)} ms, ${total.median.toFixed(0)} ms in all)`
    }
    const pass = c.median <= P5_TARGET_MS && pairs.median <= P5_RATIO_TARGET
    return [
      {
        id: 'P5',
        what: 'open a 10 MB JSON response in the inspector',
        figure: `${formatSpread(c, 0, ' ms')} n=${c.n}`,
        peer: `${formatSpread(f, 0, ' ms')} bare Monaco`,
        ratio: pairs.median,
        ratioText: `${formatSpread(pairs, 2)}x`,
        target: `<= ${P5_TARGET_MS} ms and <= ${P5_RATIO_TARGET}x`,
        verdict: pass ? 'pass' : 'fail',
        note: `${(big.length / 2 ** 20).toFixed(1)} MB body (one minified line, as received). Console: click on the exchange to its text in the response editor; the detail comes from the main side over the web host (exchanges.get, redacted) then Monaco; ${tasks(opens.console)} (median per open). Bare Monaco: fetch of the same bytes and a new editor with the console's options; ${tasks(opens.floor)}. Ratio: median of adjacent pairs. First code view of the session (loads Monaco's chunk): ${coldMs} ms.`,
        data: { opens, coldMs, bodyBytes: big.length },
      },
    ]
  } finally {
    await consolePage.close()
    await floorPage.close()
    await host.stop()
    await new Promise((r) => floorServer.close(r))
  }
}

// ---------------------------------------------------------------- P6

async function p6(browser: Browser, rendererDir: string, log: (l: string) => void): Promise<BenchResult[]> {
  log('ui: P6 logging 10,000 exchanges in a console host')
  const host = await spawnWithLine(
    ['--expose-gc', '--import', 'tsx', join(REPO_ROOT, 'test/bench/ui/console-host.ts'), 'p6', rendererDir],
    180_000,
  )
  const page = await browser.newPage({ viewport: VIEWPORT })
  try {
    const m = host.info as Record<string, number>
    await openInspector(page, String(host.info.url))
    await page.locator('button.exchange-row').first().waitFor({ state: 'visible', timeout: 60_000 })
    const rendererMb = (await jsHeapUsed(page)) / 2 ** 20
    const input = page.getByRole('search', { name: 'Filter exchanges' }).getByLabel('Path contains')
    const filters: Array<{ value: string; requestToListMs: number; typeToListMs: number }> = []
    for (const value of ['/transactions', '/balances', '/transactions', '/balances', '/transactions']) {
      const request = page.waitForRequest((r) => r.url().includes('/api/call/exchanges.list'), { timeout: 30_000 })
      const typedAt = (await page.evaluate('Date.now()')) as number
      await input.fill(value)
      const sent = await request
      const shownAt = await rowsShow(page, value)
      filters.push({ value, requestToListMs: shownAt - sent.timing().startTime, typeToListMs: shownAt - typedAt })
    }
    const f = spread(filters.map((x) => x.requestToListMs))
    const typed = spread(filters.map((x) => x.typeToListMs))
    // The larger of the two moments: right after the last exchange (a compression batch may be running)
    // and once the exchange log is idle.
    const idleMb = m.mainHeapMb! + m.mainExternalMb!
    const recordedMb = m.recordedHeapMb! + m.recordedExternalMb!
    const mainMb = Math.max(idleMb, recordedMb)
    const plainMb = m.plainHeapMb! + m.plainExternalMb!
    const bodies = (host.info as { bodies?: { afterRecord: BodyStats; idle: BodyStats } }).bodies
    const totalMb = mainMb + rendererMb
    log(
      `ui: P6 main ${mainMb.toFixed(0)} MB (plain array ${plainMb.toFixed(0)} MB), renderer ${rendererMb.toFixed(0)} MB, filter ${f.median.toFixed(0)} ms`,
    )
    return [
      {
        id: 'P6',
        what: '10,000 logged exchanges: memory',
        figure: `${totalMb.toFixed(0)} MB (main ${mainMb.toFixed(0)} + renderer ${rendererMb.toFixed(0)})`,
        peer: `${plainMb.toFixed(0)} MB plain array`,
        ratio: mainMb / plainMb,
        ratioText: `main ${(mainMb / plainMb).toFixed(2)}x the plain array`,
        target: `<= ${P6_MEMORY_TARGET_MB} MB total`,
        verdict: totalMb <= P6_MEMORY_TARGET_MB ? 'pass' : 'fail',
        note: `The P1 journey's mix (of every 36 exchanges, 17 transactions pages made by the local sandbox's generator, ${m.distinctPages} distinct ones of ${m.pageKb} KB on average, and 19 small answers with random tokens): ${m.bodyBytesMb} MB of response bodies. The exchange log keeps the newest 64 MiB of bodies as received and older ones gzipped in packs (at most 96 MiB; older ones dropped). Main side (heap + Buffers after a full GC): right after the 10,000th exchange ${recordedMb.toFixed(0)} MB (heap ${m.recordedHeapMb} + bodies ${m.recordedExternalMb}), once compression was idle (${m.idleMs} ms later) ${idleMb.toFixed(0)} MB (heap ${m.mainHeapMb} + bodies ${m.mainExternalMb}); the figure is the larger. Bodies then: ${bodies ? `${mbText(bodies.idle.rawBytes)} raw (${bodies.idle.rawBodies}), ${mbText(bodies.idle.compressedBytes)} compressed (${bodies.idle.compressedBodies}), ${bodies.idle.droppedBodies} dropped` : 'n/a'}. The same bytes in a plain array: ${m.plainHeapMb} + ${m.plainExternalMb} MB; RSS of the console host ${m.mainRssTotalMb} MB. Renderer: the JS heap after a GC with the inspector open on the list (${m.listed} listed, 500 loaded at a time). Recording them took ${m.recordMs} ms.`,
        data: { ...m, rendererMb },
      },
      {
        id: 'P6-filter',
        what: '10,000 logged exchanges: filter the list',
        figure: `${formatSpread(f, 0, ' ms')} n=${f.n}`,
        peer: `${m.plainFilterMs} ms Array.filter`,
        target: `<= ${P6_FILTER_TARGET_MS} ms`,
        verdict: f.median <= P6_FILTER_TARGET_MS ? 'pass' : 'fail',
        note: `From the exchanges.list request (path filter, first 500 of ${m.transactionsHits} hits for /transactions) to the filtered rows on screen; the main side's own filter takes ${m.filterMs} ms (plain Array.filter over 10,000 paths: ${m.plainFilterMs} ms). Typing to rendered rows: ${formatSpread(typed, 0, ' ms')}, of which ${FILTER_DEBOUNCE_MS} ms is the input's deliberate debounce.`,
        data: { filters },
      },
    ]
  } finally {
    await page.close()
    await host.stop()
  }
}

export const uiBenchmark: Benchmark = {
  ids: ['P4', 'P5', 'P6'],
  title: 'P4-P6 renderer in headless Chromium',
  async run(opts) {
    const work = mkdtempSync(join(tmpdir(), 'ob-bench-ui-'))
    let browser: Browser | undefined
    try {
      opts.log('ui: building the console (electron-vite build into a temporary directory)')
      const { rendererDir, ms } = await buildConsole(join(work, 'out'))
      opts.log(`ui: built in ${(ms / 1000).toFixed(1)} s`)
      const launched = await launchChromium()
      if ('unavailable' in launched) {
        const sizes = bundleSizes(rendererDir)
        const reason = `not measured: ${launched.unavailable}`
        return [
          {
            id: 'P4',
            what: 'renderer initial JS before Monaco, gzip',
            figure: `${kb(sizes.initialGzip)} KB gzip`,
            ...(sizes.monaco[0] ? { peer: `Monaco chunk ${kb(sizes.monaco[0].gzip)} KB gzip` } : {}),
            target: `<= ${INITIAL_JS_TARGET_KB} KB gzip`,
            verdict: !sizes.monacoInInitial && sizes.initialGzip <= INITIAL_JS_TARGET_KB * 1024 ? 'pass' : 'fail',
            note: `time to first screen ${reason}`,
            data: { sizes },
          },
          {
            id: 'P5',
            what: 'open a 10 MB JSON response in the inspector',
            target: `<= ${P5_TARGET_MS} ms and <= ${P5_RATIO_TARGET}x`,
            verdict: 'not measured',
            note: reason,
          },
          {
            id: 'P6',
            what: '10,000 logged exchanges: memory, filter',
            target: `<= ${P6_MEMORY_TARGET_MB} MB, filter <= ${P6_FILTER_TARGET_MS} ms`,
            verdict: 'not measured',
            note: reason,
          },
        ]
      }
      browser = launched
      const results: BenchResult[] = []
      const guarded = async (ids: string, what: string, run: () => Promise<BenchResult[]>) => {
        try {
          results.push(...(await run()))
        } catch (err) {
          results.push({
            id: ids,
            what,
            target: '-',
            verdict: 'error',
            note: `could not run: ${(err as Error).message.split('\n')[0]}`,
            data: { stack: (err as Error).stack },
          })
        }
      }
      await guarded('P4', 'renderer initial JS, first screen', () => p4(browser!, rendererDir, opts.log))
      await guarded('P5', 'open a 10 MB JSON response in the inspector', () =>
        p5(browser!, rendererDir, work, opts.log),
      )
      await guarded('P6', '10,000 logged exchanges', () => p6(browser!, rendererDir, opts.log))
      return results
    } finally {
      await browser?.close()
      rmSync(work, { recursive: true, force: true })
    }
  },
}
