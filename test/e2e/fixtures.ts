/**
 * Per test: a fresh data directory and a real console (`ob-console serve`: web host, services, the
 * embedded local sandbox) spawned on free ports; the page opens the URL it prints. The server's output
 * is attached to the test when it fails.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { dataDirLayout } from '../../src-main/local-sandbox/data-dir.ts'
import { saveTemplate, seedFromTemplate } from '../../src-main/local-sandbox/pki/template.ts'

export const ROOT = resolve(import.meta.dirname, '../..')

export interface ConsoleServer {
  url: string
  origin: string
  dataDir: string
  sandbox: { baseUrl: string; authUrl: string; directoryUrl: string }
  loopbackRedirectUri: string | null
  output(): string
}

/** `ob-console serve` on `port` (0: a free one), data in `dataDir`, up to its JSON line. */
export async function startConsole(dataDir: string, port = 0): Promise<{ child: ChildProcess; server: ConsoleServer }> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin/ob-console.js'),
      'serve',
      '--port',
      String(port),
      '--loopback-port',
      '0',
      '--data-dir',
      dataDir,
      '--json',
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  )
  let out = ''
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString()
  })
  const line = await new Promise<string>((resolveLine, reject) => {
    let buf = ''
    const timer = setTimeout(
      () => reject(new Error(`ob-console serve printed no JSON line within 90 s:\n${out}`)),
      90_000,
    )
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString()
      out += c.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) {
        clearTimeout(timer)
        resolveLine(buf.slice(0, nl))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`ob-console serve exited with ${code} before it was ready:\n${out}`))
    })
  })
  const info = JSON.parse(line) as Omit<ConsoleServer, 'output' | 'dataDir'>
  return { child, server: { ...info, dataDir, output: () => out } }
}

export async function stopConsole(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

export const test = base.extend<{ consoleServer: ConsoleServer; app: Page }, { pkiTemplate: string }>({
  /**
   * The bank's keys and certificates of the first sandbox this worker started, copied into each later
   * test's fresh data directory (the PKI template the CLI's throwaway sandboxes use): minting five RSA keys
   * per test cost about a second of each test's start. Every test still has its own data, TPPs and clients.
   */
  pkiTemplate: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'ob-console-e2e-pki-'))
      await use(join(dir, 'template'))
      rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
  consoleServer: async ({ pkiTemplate }, use, testInfo) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ob-console-e2e-'))
    const sandboxLayout = dataDirLayout(join(dataDir, 'local-sandbox'))
    seedFromTemplate(sandboxLayout, pkiTemplate)
    const { child, server } = await startConsole(dataDir)
    try {
      await use(server)
    } finally {
      await stopConsole(child)
      saveTemplate(sandboxLayout, pkiTemplate)
      if (testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('ob-console serve output', { body: server.output(), contentType: 'text/plain' })
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
  /** The console page, opened at the printed URL, with console errors collected and checked at the end. */
  app: async ({ page, consoleServer }, use) => {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    page.on('console', (m) => {
      // The web host serves no favicon; Chromium asks for one anyway.
      if (m.type() === 'error' && !/favicon\.ico/.test(`${m.text()} ${m.location()?.url ?? ''}`))
        errors.push(`console.error: ${m.text()} (${m.location()?.url ?? ''})`)
    })
    await page.goto(consoleServer.url)
    await use(page)
    expect(errors, 'errors in the page').toEqual([])
  },
})

export { expect }

/** Saves a screenshot of a main screen under test-results/screens/ (kept for a person to look at). */
export async function saveScreen(page: Page, name: string): Promise<void> {
  const dir = join(ROOT, 'test-results', 'screens')
  mkdirSync(dir, { recursive: true })
  // From the top: the navigation is sticky (it stays in view as the page scrolls), so a full-page
  // capture taken while scrolled down draws it wherever the viewport was.
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true })
}
