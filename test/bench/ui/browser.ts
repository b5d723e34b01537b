/**
 * Headless Chromium for the UI benchmarks: the browser the end-to-end tests find (`scripts/browser.mjs`),
 * driven by Playwright with the launch flags of `playwright.config.ts` (one place for them), and the
 * page-side probes the benchmarks read.
 */
import { chromium, type Browser, type Page } from '@playwright/test'
import config from '../../../playwright.config.ts'
import { NO_BROWSER } from '../../../scripts/browser.mjs'

/** Launches Chromium with the end-to-end tests' options, or says why it cannot. */
export async function launchChromium(): Promise<Browser | { unavailable: string }> {
  const launch = config.use?.launchOptions ?? {}
  try {
    return await chromium.launch({ ...launch, headless: true })
  } catch {
    return { unavailable: NO_BROWSER }
  }
}

/**
 * Installed before any page script: collects long tasks (over 50 ms on the main thread) with their
 * start times, so a benchmark can count those inside a measured interval.
 */
export const LONG_TASK_PROBE = `
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration }) })
      .observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__longTasks = null }
`

export interface LongTasks {
  count: number
  totalMs: number
  maxMs: number
}

/** The page's clock now (ms since navigation). */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate('performance.now()') as Promise<number>
}

/** Long tasks that started between `from` and `to` (page clock), or undefined when the browser reports none. */
export async function longTasksBetween(page: Page, from: number, to: number): Promise<LongTasks | undefined> {
  const all = (await page.evaluate('window.__longTasks')) as Array<{ start: number; duration: number }> | null
  if (!all) return undefined
  const inside = all.filter((t) => t.start >= from && t.start <= to)
  return {
    count: inside.length,
    totalMs: inside.reduce((n, t) => n + t.duration, 0),
    maxMs: inside.reduce((m, t) => Math.max(m, t.duration), 0),
  }
}

/** The renderer's JavaScript heap in use after a full GC (Chrome DevTools Protocol), bytes. */
export async function jsHeapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('HeapProfiler.enable')
    await cdp.send('HeapProfiler.collectGarbage')
    await cdp.send('Performance.enable')
    const { metrics } = await cdp.send('Performance.getMetrics')
    const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value
    if (used === undefined) throw new Error('Chromium reported no JSHeapUsedSize')
    return used
  } finally {
    await cdp.detach()
  }
}
