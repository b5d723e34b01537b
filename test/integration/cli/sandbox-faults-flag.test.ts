/** `ob-console sandbox --faults FILE`: the rules are checked before start and are in force once it runs. */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '../../..')
const BIN = join(REPO, 'bin/ob-console.js')
const work = mkdtempSync(join(tmpdir(), 'ob-cli-faults-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, OB_CONSOLE_SANDBOX_DIR: join(work, 'never-used') },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const done = new Promise<{ code: number | null }>((res) => child.on('close', (code) => res({ code })))
  return { child, done, stdout: () => stdout, stderr: () => stderr }
}

function rulesFile(name: string, content: string): string {
  const file = join(work, name)
  writeFileSync(file, content)
  return file
}

describe('ob-console sandbox --faults FILE', () => {
  it.each([
    ['bad-json.json', '{"rules": [', /--faults .*bad-json\.json is not valid JSON/],
    [
      'bad-rule.json',
      JSON.stringify({ rules: [{ fault: { kind: 'status' } }] }),
      /--faults .*bad-rule\.json: rules\[0\]\.fault\.status is missing/,
    ],
  ])('%s: one line naming the problem, exit 2, nothing started', async (name, content, message) => {
    const proc = start([
      'sandbox',
      '--port',
      '0',
      '--data-dir',
      join(work, 'data-bad'),
      '--faults',
      rulesFile(name, content),
    ])
    const r = await proc.done
    expect(r.code).toBe(2)
    expect(proc.stdout()).toBe('')
    expect(proc.stderr().split('\n')[0]).toMatch(message)
  })

  it('a missing file: exit 2 naming it', async () => {
    const proc = start(['sandbox', '--port', '0', '--faults', join(work, 'absent.json')])
    expect((await proc.done).code).toBe(2)
    expect(proc.stderr().split('\n')[0]).toMatch(/--faults .*absent\.json: the file does not exist/)
  })

  it('--faults with --issue-tpp is refused', async () => {
    const proc = start([
      'sandbox',
      '--issue-tpp',
      join(work, 'kit'),
      '--faults',
      rulesFile('ok0.json', '{"rules": []}'),
    ])
    expect((await proc.done).code).toBe(2)
    expect(proc.stderr()).toMatch(/--faults starts a sandbox; it cannot be combined with --issue-tpp/)
  })

  it('starts with the rules in force, listed by the admin endpoint', async () => {
    const file = rulesFile(
      'ok.json',
      JSON.stringify({
        rules: [
          {
            id: 'jwks-down',
            origin: 'directory',
            method: 'GET',
            path: '/jwks',
            times: 1,
            fault: { kind: 'html-error', status: 503 },
          },
        ],
      }),
    )
    const proc = start(['sandbox', '--port', '0', '--json', '--data-dir', join(work, 'data'), '--faults', file])
    try {
      const line = await new Promise<string>((res, rej) => {
        const check = () => {
          const i = proc.stdout().indexOf('\n')
          if (i >= 0) res(proc.stdout().slice(0, i))
        }
        proc.child.stdout.on('data', check)
        proc.done.then(() => rej(new Error(`exited early: ${proc.stderr()}`)))
      })
      const started = JSON.parse(line) as { directoryUrl: string; caBundlePath: string; faults: number }
      expect(started.faults).toBe(1)
      const { readFileSync } = await import('node:fs')
      const agent = new Agent({ connect: { ca: readFileSync(started.caBundlePath, 'utf8') }, connections: 1 })
      try {
        const faulted = await request(`${started.directoryUrl}/jwks`, { dispatcher: agent })
        expect([faulted.statusCode, faulted.headers['content-type']]).toEqual([503, 'text/html'])
        await faulted.body.text()
        const real = await request(`${started.directoryUrl}/jwks`, { dispatcher: agent })
        expect(real.statusCode).toBe(200)
        await real.body.text()
        const listed = await request(`${started.directoryUrl}/admin/faults`, { dispatcher: agent })
        expect(((await listed.body.json()) as { rules: unknown[] }).rules).toEqual([
          expect.objectContaining({ id: 'jwks-down', hits: 1, exhausted: true }),
        ])
      } finally {
        await agent.close()
      }
      expect(proc.stderr()).toMatch(/fault jwks-down \(html-error\) on directory GET \/jwks/)
    } finally {
      proc.child.kill('SIGTERM')
      await proc.done
    }
  })
})
