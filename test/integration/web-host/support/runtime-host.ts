import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type ClientRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConsoleRuntime } from '../../../../src-main/cli/console-runtime.ts'
import { startWebHost, type RunningWebHost } from '../../../../src-main/web-host/web-host.ts'
import { freshRuntime } from '../../services/journey-support.ts'

/** A fresh console runtime served by the web host over a placeholder renderer folder. */
export interface RuntimeHost {
  rt: ConsoleRuntime
  host: RunningWebHost
  /** Stops the host and the runtime and removes the renderer folder. */
  stop(): Promise<void>
}

export async function startRuntimeHost(prefix: string): Promise<RuntimeHost> {
  const rt = await freshRuntime()
  const rendererDir = mkdtempSync(join(tmpdir(), prefix))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>OB Console</title>')
  const host = await startWebHost({
    ...rt.webHost,
    rendererDir,
    port: 0,
  })
  return {
    rt,
    host,
    async stop() {
      await host.stop()
      await rt.stop()
      rmSync(rendererDir, { recursive: true, force: true })
    },
  }
}

/** Opens the host's event stream (as a browser window does); each chunk goes to `onData`. Destroy it to close. */
export function openEventStream(host: RunningWebHost, onData: (chunk: string) => void): Promise<ClientRequest> {
  return new Promise<ClientRequest>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        path: '/api/events',
        headers: { host: `127.0.0.1:${host.port}`, 'x-ob-console-token': host.token },
      },
      (res) => {
        res.setEncoding('utf8')
        res.on('data', onData)
        resolve(req)
      },
    )
    req.on('error', reject)
    req.end()
  })
}
