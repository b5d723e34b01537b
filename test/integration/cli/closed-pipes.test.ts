/**
 * `ob-console sandbox` and `ob-console serve` keep serving when whoever read their output goes away: the
 * reading ends of their stdout and stderr pipes are closed after the first line, then requests that make
 * them write more log lines (a fault rule added, each fault applied) are answered, and the process lives on.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, REPO } from './support/run-cli.ts'

const WORK = mkdtempSync(join(tmpdir(), 'ob-cli-pipes-'))
afterAll(() => rmSync(WORK, { recursive: true, force: true }))

/** Starts the command; resolves with the process and its first stdout line. */
function startAndReadFirstLine(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; line: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, OB_CONSOLE_SANDBOX_DIR: join(WORK, 'never-used'), OB_CONSOLE_DATA_DIR: join(WORK, 'nu') },
  })
  let out = ''
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const i = out.indexOf('\n')
      if (i >= 0) resolve({ child, line: out.slice(0, i) })
    })
    child.once('exit', (code) => reject(new Error(`exited (${code}) before its first line; stderr: ${err}`)))
  })
}

/** Closes our reading ends: every later write of the child to stdout or stderr meets a closed pipe (EPIPE). */
function closeReadingEnds(child: ChildProcessWithoutNullStreams): void {
  child.stdout.destroy()
  child.stderr.destroy()
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}

// The sandbox's directory speaks server TLS with its own CA; this test only checks it answers.
const insecure = new Agent({ connect: { rejectUnauthorized: false } })
afterAll(() => insecure.close())

/** Adds a fault rule (the sandbox logs "fault mode: rule … added") and hits it (it logs "fault … on …"). */
async function makeLogLines(directoryUrl: string, id: string): Promise<void> {
  const added = await request(`${directoryUrl}/admin/faults`, {
    method: 'POST',
    dispatcher: insecure,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, origin: 'directory', method: 'GET', path: '/jwks', fault: { kind: 'latency', ms: 0 } }),
  })
  expect(added.statusCode).toBe(201)
  await added.body.text()
  for (let i = 0; i < 20; i++) {
    const jwks = await request(`${directoryUrl}/jwks`, { dispatcher: insecure })
    expect(jwks.statusCode).toBe(200)
    await jwks.body.text()
  }
}

describe('closed stdout and stderr pipes (EPIPE)', () => {
  it('ob-console sandbox --json keeps answering after the reader went away', async () => {
    const { child, line } = await startAndReadFirstLine([
      'sandbox',
      '--port',
      '0',
      '--json',
      '--data-dir',
      join(WORK, 'sandbox'),
    ])
    try {
      const started = JSON.parse(line) as { directoryUrl: string }
      closeReadingEnds(child)
      await makeLogLines(started.directoryUrl, 'after-close-1')
      // Still alive and answering after those writes met the closed pipes.
      await makeLogLines(started.directoryUrl, 'after-close-2')
      expect(child.exitCode).toBeNull()
    } finally {
      await stop(child)
    }
  }, 120_000)

  it('ob-console serve --json keeps serving the console and its sandbox after the reader went away', async () => {
    const renderer = join(WORK, 'renderer')
    mkdirSync(renderer, { recursive: true })
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>OB Console</title>')
    const { child, line } = await startAndReadFirstLine([
      'serve',
      '--port',
      '0',
      '--sandbox-port',
      '0',
      '--json',
      '--data-dir',
      join(WORK, 'console'),
      '--renderer-dir',
      renderer,
    ])
    try {
      const started = JSON.parse(line) as { url: string; origin: string; sandbox: { directoryUrl: string } }
      closeReadingEnds(child)
      const page = async () => {
        const res = await request(`${started.origin}/`, { headers: { host: new URL(started.origin).host } })
        await res.body.text()
        return res.statusCode
      }
      expect(await page()).toBe(200)
      await makeLogLines(started.sandbox.directoryUrl, 'after-close-1')
      expect(await page()).toBe(200)
      await makeLogLines(started.sandbox.directoryUrl, 'after-close-2')
      expect(await page()).toBe(200)
      expect(child.exitCode).toBeNull()
    } finally {
      await stop(child)
    }
  }, 120_000)
})
