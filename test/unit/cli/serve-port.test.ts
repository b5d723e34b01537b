import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { UsageError } from '../../../src-main/cli/cli-support.ts'
import { DEFAULT_SERVE_PORT, onServePort } from '../../../src-main/cli/serve-port.ts'
import { SERVE_USAGE } from '../../../src-main/cli/usage.ts'
import type { ContractEvent } from '../../../src-main/contract/transport.ts'
import { startWebHost, type RunningWebHost } from '../../../src-main/web-host/web-host.ts'
import { freePort } from '../../support/free-ports.ts'

const dir = mkdtempSync(join(tmpdir(), 'serve-port-'))
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>OB Console</title>')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A port held by another program for the length of a test. */
async function occupied(): Promise<{ port: number; server: Server }> {
  const port = await freePort()
  const server = createServer()
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  return { port, server }
}

describe("serve's port", () => {
  const open: Array<{ stop(): Promise<void> } | Server> = []
  const subscriptions = new Set<(e: ContractEvent) => void>()
  afterEach(async () => {
    for (const o of open.splice(0)) await ('stop' in o ? o.stop() : new Promise((r) => (o as Server).close(r)))
  })
  const host = (port: number): Promise<RunningWebHost> =>
    startWebHost({
      rendererDir: dir,
      handlers: {},
      port,
      subscribe: (l) => {
        subscriptions.add(l)
        return () => subscriptions.delete(l)
      },
    }).then((h) => (open.push(h), h))

  it('is the same on every start without --port, and the usage says which', async () => {
    expect(DEFAULT_SERVE_PORT).toBe(53681)
    expect(SERVE_USAGE).toContain(`The port is ${DEFAULT_SERVE_PORT} unless --port N says otherwise`)
    const port = await freePort()
    const notices: string[] = []
    const first = await onServePort(undefined, host, (l) => notices.push(l), port)
    expect(first.port).toBe(port)
    await first.stop()
    const second = await onServePort(undefined, host, (l) => notices.push(l), port)
    expect(second.origin).toBe(first.origin)
    expect(notices).toEqual([])
  })

  it('falls back to a free port, and says so, when the default is taken; nothing stays subscribed from the try', async () => {
    const taken = await occupied()
    open.push(taken.server)
    const notices: string[] = []
    subscriptions.clear()
    const h = await onServePort(undefined, host, (l) => notices.push(l), taken.port)
    expect(h.port).not.toBe(taken.port)
    expect(h.port).toBeGreaterThan(0)
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain(`port ${taken.port} on 127.0.0.1 cannot be had (EADDRINUSE`)
    expect(notices[0]).toContain('--port N chooses the port')
    expect(subscriptions.size).toBe(1)
  })

  it('a port given with --port that is taken is a usage error naming it, with no fallback', async () => {
    const taken = await occupied()
    open.push(taken.server)
    const notices: string[] = []
    subscriptions.clear()
    const err = await onServePort(taken.port, host, (l) => notices.push(l)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as UsageError).message).toBe(
      `port ${taken.port} on 127.0.0.1 is in use (another OB Console, or another program), so the console cannot serve on it`,
    )
    expect((err as UsageError).fix).toBe(
      'Stop what uses it, choose another port with --port N, or --port 0 for a free one.',
    )
    expect(notices).toEqual([])
    expect(subscriptions.size).toBe(0)
  })

  it('--port 0 takes a free port; a failure that is not about the port is passed on as it is', async () => {
    const h = await onServePort(0, host, () => {})
    expect(h.port).toBeGreaterThan(0)
    const odd = Object.assign(new Error('no file descriptors left'), { code: 'EMFILE' })
    await expect(
      onServePort(
        undefined,
        () => Promise.reject(odd),
        () => {},
      ),
    ).rejects.toBe(odd)
    await expect(
      onServePort(
        1234,
        () => Promise.reject(odd),
        () => {},
      ),
    ).rejects.toBe(odd)
  })
})
