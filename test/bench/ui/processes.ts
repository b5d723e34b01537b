/** Child processes that announce themselves with one JSON line on stdout (the console, the hosts, the floors). */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
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

/**
 * Starts the console (`bin serve --port P … --json`, data in `dataDir`, the renderer from `rendererDir`; P
 * is `port`, default 0: a free one) or the floor (a bare Node server of a one-element page), opens its URL in
 * a new page of `browser` (a browser context: one per user's browser profile) and times until the "Main"
 * navigation is visible; stops the process either way.
 */
export async function timeFirstScreen(
  browser: { newPage(): Promise<Page> },
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
  const page = await browser.newPage()
  try {
    await page.goto(String(proc.info.url))
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'visible', timeout: 60_000 })
    const t2 = performance.now()
    return { totalMs: t2 - t0, serverMs: proc.readyAt - t0, pageMs: t2 - proc.readyAt }
  } finally {
    await page.close()
    await proc.stop()
  }
}
