import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../support/free-ports.ts'
import { lastJson, runCli } from './support/run-cli.ts'

/**
 * `ob-console serve` reports a failure to start as the console explains errors: the code the contract call
 * or the store gave (never INTERNAL for a file in the way), with its cause and fix, on stderr and in --json.
 */
describe('ob-console serve: errors keep their code', () => {
  const root = mkdtempSync(join(tmpdir(), 'ob-serve-errors-'))
  const renderer = join(root, 'renderer')
  mkdirSync(renderer)
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>test</title>')
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it("the local sandbox's start failing: the handler's STORE_ERROR, its cause and fix, exit 1", async () => {
    const data = join(root, 'sandbox-in-the-way')
    mkdirSync(data)
    // A file where the embedded sandbox keeps its data.
    writeFileSync(join(data, 'local-sandbox'), 'not a folder')
    const r = await runCli(['serve', '--json', '--port', '0', '--data-dir', data, '--renderer-dir', renderer])
    expect(r.code).toBe(1)
    expect(lastJson(r).error).toMatchObject({
      code: 'STORE_ERROR',
      what: 'Starting the local sandbox failed',
      cause: expect.stringContaining('EEXIST'),
      fix: expect.stringContaining('path'),
    })
    expect(r.stderr).toMatch(/Starting the local sandbox failed\n {2}cause: .*EEXIST.*\n {2}fix: {3}Check the file/)
  })

  it('a damaged settings file: STORE_ERROR naming the file and the way back, the file left as it was', async () => {
    const data = join(root, 'damaged-settings')
    mkdirSync(join(data, 'store'), { recursive: true })
    const settings = join(data, 'store', 'ob-console.json')
    writeFileSync(settings, '{ "environments": [')
    const r = await runCli(['serve', '--json', '--port', '0', '--data-dir', data, '--renderer-dir', renderer])
    expect(r.code).toBe(1)
    expect(lastJson(r).error).toMatchObject({
      code: 'STORE_ERROR',
      what: `The console's settings file ${settings} could not be read`,
      cause: expect.stringMatching(/^it is not JSON/),
      fix: expect.stringContaining('move it aside'),
      details: { path: settings },
    })
    expect(r.stderr).toContain(`fix:   The console left it as it was`)
    expect(readFileSync(settings, 'utf8')).toBe('{ "environments": [')
  })

  it('a --port another program holds: a usage error naming the port and the way out, exit 2, nothing left running', async () => {
    const port = await freePort()
    const other = createServer()
    await new Promise<void>((r) => other.listen(port, '127.0.0.1', r))
    try {
      const data = join(root, 'port-taken')
      const r = await runCli([
        'serve',
        '--json',
        '--port',
        String(port),
        '--data-dir',
        data,
        '--renderer-dir',
        renderer,
      ])
      expect(r.code).toBe(2)
      expect(lastJson(r).error).toEqual({
        code: 'USAGE',
        what: `port ${port} on 127.0.0.1 is in use (another OB Console, or another program), so the console cannot serve on it`,
        cause: `listen EADDRINUSE 127.0.0.1:${port}`,
        fix: 'Stop what uses it, choose another port with --port N, or --port 0 for a free one.',
      })
      expect(r.stderr).toContain(`ob-console: port ${port} on 127.0.0.1 is in use`)
      // The embedded sandbox had started (its PKI is there) and was stopped: the process exited.
      expect(existsSync(join(data, 'local-sandbox', 'pki'))).toBe(true)
    } finally {
      await new Promise((r) => other.close(r))
    }
  })
})
