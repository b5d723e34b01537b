import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { lastJson, runCli } from './support/run-cli.ts'

const TMP = mkdtempSync(join(tmpdir(), 'ob-cli-fixes-'))
afterAll(() => rmSync(TMP, { recursive: true, force: true }))

const run = (args: string[], env: NodeJS.ProcessEnv) => runCli(args, { env, timeoutMs: 150_000 })

describe('CLI fixes', { timeout: 400_000 }, () => {
  it('onboard --json without --data-dir keeps the client in the console data directory, where a later command finds it', async () => {
    const dataDir = join(TMP, 'default-data')
    const onboard = await run(['onboard', '--env', 'local', '--headless', '--json'], { OB_CONSOLE_DATA_DIR: dataDir })
    expect(onboard.code, onboard.stderr).toBe(0)
    const { clientId, dataDir: printed } = lastJson(onboard)
    expect(printed).toBe(dataDir)
    const get = await run(['dcr', 'get', '--env', 'local', '--client', clientId, '--json'], {
      OB_CONSOLE_DATA_DIR: dataDir,
    })
    expect(get.code, get.stderr).toBe(0)
    expect(lastJson(get).client.clientId).toBe(clientId)
  })

  it('ais without --headless on a busy loopback port names the busy port and offers --loopback-port, --paste and --headless', async () => {
    const server = createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as AddressInfo).port
    try {
      const r = await run(
        ['ais', '--env', 'local', '--loopback-port', String(port), '--data-dir', join(TMP, 'busy'), '--json'],
        { OB_CONSOLE_DATA_DIR: join(TMP, 'unused') },
      )
      expect(r.code).toBe(1)
      const error = lastJson(r).error
      expect(error).toMatchObject({
        code: 'INVALID_INPUT',
        cause: `Port ${port} is in use (another ob-console, or another program).`,
      })
      expect(error.fix).toContain('--loopback-port N')
      expect(error.fix).toContain('--paste')
    } finally {
      server.close()
    }
  })

  it('refuses contradictory capture and PSU flags as usage errors', async () => {
    const both = await run(['ais', '--env', 'local', '--headless', '--paste'], {})
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('choose one of --headless, --paste and --loopback-port')
    const psu = await run(['ais', '--env', 'local', '--psu-absent', '--psu-ip', '192.0.2.1'], {})
    expect(psu.code).toBe(2)
    expect(psu.stderr).toContain('--psu-ip is the address of a PSU who is present')
  })
})
