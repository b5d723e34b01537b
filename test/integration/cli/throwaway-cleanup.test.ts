import { readdirSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { liveRunsOfEachTest, type LiveCli } from './support/live-cli.ts'

/**
 * `ais|pis --env local` without --data-dir runs on a throwaway sandbox and store (master key, encrypted
 * keys, the sandbox's PKI keys) in the temporary folder: each way the command ends removes them. Each run
 * has a TMPDIR of its own, listed after the exit.
 */

const live = liveRunsOfEachTest()

/** What the command left in its TMPDIR (nothing, when it cleaned up). */
const left = (r: LiveCli) => readdirSync(r.tmp)

describe('nothing left behind by a throwaway sandbox', { timeout: 300_000 }, () => {
  it('a run to its end (exit 0)', async () => {
    const r = live(['ais', '--env', 'local', '--headless', '--permissions', 'ReadAccountsDetail'])
    // While it runs, the throwaway data directory holds the store and the sandbox's keys.
    await r.waitFor(/registered client/)
    expect(left(r)).toEqual([expect.stringMatching(/^ob-console-/)])
    const { code } = await r.exited
    expect(code, r.stderr().slice(-1500)).toBe(0)
    expect(left(r)).toEqual([])
  })

  it('a failed step (exit 1, the step says why)', async () => {
    const r = live(['pis', '--env', 'local', '--headless', '--amount', '9999999999.00'])
    const { code } = await r.exited
    expect(code).toBe(1)
    expect(r.stdout()).toContain('✗ Funds confirmation')
    expect(left(r)).toEqual([])
  })

  it('a busy loopback port (exit 1, the port named)', async () => {
    const server = createServer()
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const port = (server.address() as AddressInfo).port
    try {
      const r = live(['ais', '--env', 'local', '--no-open', '--loopback-port', String(port)])
      const { code } = await r.exited
      expect(code).toBe(1)
      expect(r.stderr()).toContain(`ob-console: The redirect listener could not start on 127.0.0.1:${port}.`)
      expect(left(r)).toEqual([])
    } finally {
      server.close()
    }
  })

  it('Ctrl+C (SIGINT) while it waits for the PSU: exit 130', async () => {
    const r = live(['ais', '--env', 'local', '--no-open', '--loopback-port', '0'])
    await r.waitFor(/Waiting for the bank to send the PSU back/)
    expect(left(r)).toHaveLength(1)
    r.child.kill('SIGINT')
    const { code, signal } = await r.exited
    expect({ code, signal }).toEqual({ code: 130, signal: null })
    expect(r.stderr()).toContain('ob-console: stopped by SIGINT; cleaning up.')
    expect(left(r)).toEqual([])
  })

  it('SIGTERM while it waits for a pasted return: exit 143', async () => {
    const r = live(['pis', '--env', 'local', '--no-open', '--paste'])
    await r.waitFor(/Then paste here/)
    r.child.kill('SIGTERM')
    const { code, signal } = await r.exited
    expect({ code, signal }).toEqual({ code: 143, signal: null })
    expect(r.stderr()).toContain('ob-console: stopped by SIGTERM; cleaning up.')
    expect(left(r)).toEqual([])
  })

  it('SIGTERM while the sandbox starts: exit 143, nothing left', async () => {
    const r = live(['ais', '--env', 'local', '--headless'])
    await r.waitFor(/local sandbox/, 'stderr')
    r.child.kill('SIGTERM')
    const { code } = await r.exited
    expect(code).toBe(143)
    expect(left(r)).toEqual([])
  })
})
