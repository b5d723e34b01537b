/** Child processes that announce themselves with one JSON line on stdout (the console, the hosts, the floors). */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { REPO_ROOT } from '../lib/sandbox-process.ts'

export interface LineProcess {
  child: ChildProcess
  /** The first stdout line, parsed. */
  info: Record<string, unknown>
  /** performance.now() when the line arrived. */
  readyAt: number
  /** The last output (stdout and stderr), for error messages. */
  output(): string
  stop(): Promise<void>
}

/** Spawns `node <args>` in the repository and waits (at most `timeoutMs`) for its first stdout line. */
export async function spawnWithLine(args: string[], timeoutMs = 90_000): Promise<LineProcess> {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let out = ''
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)))
  const line = await new Promise<string>((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(
      () => reject(new Error(`node ${args.join(' ')} printed no line within ${timeoutMs / 1000} s: ${out}`)),
      timeoutMs,
    )
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      out = (out + d.toString()).slice(-4000)
      const nl = buf.indexOf('\n')
      if (nl >= 0) {
        clearTimeout(timer)
        resolve(buf.slice(0, nl))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`node ${args.join(' ')} exited with ${code} before its line: ${out}`))
    })
  })
  const readyAt = performance.now()
  return {
    child,
    info: JSON.parse(line) as Record<string, unknown>,
    readyAt,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** One start to the first interactive screen: from the spawn to the server's line, then to the page's "Main" navigation. */
export interface FirstScreen {
  totalMs: number
  serverMs: number
  pageMs: number
}

/** Opens a URL in the browser under test and gives its page (loading or loaded). */
export type PageOpener = (url: string) => Promise<Page>

/** A new page of its own that goes to the URL: with `browser.newPage`, a new browser context, a first visit. */
export function newPageOpener(newPage: () => Promise<Page>): PageOpener {
  return async (url) => {
    const page = await newPage()
    try {
      await page.goto(url)
      return page
    } catch (err) {
      await page.close()
      throw err
    }
  }
}

/**
 * A user's running browser: one profile and one window with a page open; each URL opens as a new tab of it
 * (`window.open`, no opener), as `xdg-open`, `open` or `start` hand a URL to the browser already running. A
 * new page per URL is a new window in headless Chromium, and Chromium 156 builds each window's address-bar
 * popup (a WebUI page of some 300 modules) as it opens: about 120 ms of both cores per start here, which a
 * user's browser spends once.
 */
export async function runningBrowser(browser: Browser): Promise<{ open: PageOpener; close(): Promise<void> }> {
  const context = await browser.newContext()
  const home = await context.newPage()
  return {
    open: async (url) => {
      const opened = context.waitForEvent('page')
      await home.evaluate(`void window.open(${JSON.stringify(url)}, '_blank', 'noopener')`)
      return opened
    },
    close: () => context.close(),
  }
}

/**
 * Starts the console (`bin serve --port P … --json`, data in `dataDir`, the renderer from `rendererDir`; P
 * is `port`, default 0: a free one) or the floor (a bare Node server of a one-element page), opens its URL
 * with `open` and times until the "Main" navigation is visible; stops the process either way.
 */
export async function timeFirstScreen(
  open: PageOpener,
  kind: 'console' | 'floor',
  console: { bin: string; dataDir: string; rendererDir: string; port?: number },
): Promise<FirstScreen> {
  const t0 = performance.now()
  const proc =
    kind === 'console'
      ? await spawnWithLine([
          console.bin,
          'serve',
          '--port',
          String(console.port ?? 0),
          '--loopback-port',
          '0',
          '--json',
          '--data-dir',
          console.dataDir,
          '--renderer-dir',
          console.rendererDir,
        ])
      : await spawnWithLine([join(REPO_ROOT, 'test/bench/ui/bare-page-server.mjs')])
  let page: Page | undefined
  try {
    page = await open(String(proc.info.url))
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'visible', timeout: 60_000 })
    const t2 = performance.now()
    return { totalMs: t2 - t0, serverMs: proc.readyAt - t0, pageMs: t2 - proc.readyAt }
  } finally {
    await page?.close()
    await proc.stop()
  }
}
