import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startCli } from './support/live-cli.ts'
import { lastJson, runCli } from './support/run-cli.ts'

const DATA = mkdtempSync(join(tmpdir(), 'ob-cli-clock-'))
afterAll(() => rmSync(DATA, { recursive: true, force: true }))

const run = (args: string[], timeoutMs?: number) =>
  runCli(args, { env: { OB_CONSOLE_DATA_DIR: join(DATA, 'never-used') }, ...(timeoutMs ? { timeoutMs } : {}) })

describe("the CLI counts a local-sandbox consent's expiry on the sandbox's clock", () => {
  it(
    'a consent that expires in a day is named expired once the sandbox clock moved seven days on',
    { timeout: 600_000 },
    async () => {
      const ais = await run(
        ['ais', '--headless', '--env', 'local', '--data-dir', DATA, '--consent-expiry', 'P1D', '--json'],
        300_000,
      )
      expect(ais.code, ais.stderr.slice(-2000)).toBe(0)
      const consentId = lastJson(ais).consentId as string

      const fresh = await run(['consent', 'list', '--data-dir', DATA])
      expect(fresh.code, fresh.stderr).toBe(0)
      expect(fresh.stdout).toContain(consentId)
      expect(fresh.stdout).toMatch(/expires {12}\S+ \(0 days left\)/)

      // The sandbox of that data directory started alone with its clock seven days ahead (kept in its store), then stopped.
      const sandbox = startCli([
        'sandbox',
        '--data-dir',
        join(DATA, 'local-sandbox'),
        '--port',
        '0',
        '--clock-offset',
        'P7D',
        '--json',
      ])
      try {
        await sandbox.waitFor(/^\{.*\}$/m)
      } finally {
        sandbox.child.kill('SIGTERM')
        await sandbox.exited
        rmSync(sandbox.tmp, { recursive: true, force: true })
      }

      // Listing starts no sandbox: the offset its store keeps is read.
      const listed = await run(['consent', 'list', '--data-dir', DATA])
      expect(listed.code, listed.stderr).toBe(0)
      expect(listed.stdout).toMatch(/expires {12}\S+ \(EXPIRED\)/)
      expect(listed.stdout).not.toContain('days left')
      const json = lastJson(await run(['consent', 'list', '--data-dir', DATA, '--json']))
      expect(json.consents[0].daysToExpiry).toBeLessThanOrEqual(-6)

      // Reading it from the bank starts the sandbox, whose clock is asked.
      const read = await run(['consent', 'get', '--consent', consentId, '--env', 'local', '--data-dir', DATA], 120_000)
      expect(read.code, read.stderr).toBe(0)
      expect(read.stdout).toMatch(/expires {12}\S+ \(EXPIRED\)/)
    },
  )
})
