import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { HandlerTable } from '../contract/transport.ts'
import { AppError } from '../core/app-error.ts'
import { startWebHost } from '../web-host/web-host.ts'
import { reportError, UsageError } from './cli-support.ts'
import { createConsoleRuntime } from './console-runtime.ts'
import { SERVE_USAGE } from './usage.ts'
import { writeErr, writeErrLine, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { SERVE_USAGE }

export const RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer')

const OPTIONS = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'sandbox-port': { type: 'string' },
  'loopback-port': { type: 'string' },
  'no-sandbox': { type: 'boolean' },
  'renderer-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

function port(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new UsageError(`${name} must be a port number from 0 to 65535, got "${text}"`)
  return Number(text)
}

/** `ob-console serve`: the console in the browser, served with its contract on 127.0.0.1. */
export async function runServeCommand(argv: string[], intro?: string): Promise<number> {
  let stop: (() => Promise<void>) | undefined
  try {
    let v
    try {
      v = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values
    } catch (err) {
      throw new UsageError((err as Error).message.split('\n')[0]!)
    }
    if (v.help) {
      writeOut(SERVE_USAGE)
      return 0
    }
    const rendererDir = resolve(v['renderer-dir'] ?? RENDERER_DIR)
    if (!existsSync(resolve(rendererDir, 'index.html'))) {
      throw new UsageError(
        `the renderer is not built (${rendererDir}/index.html is missing): run "npm run build" first (npm start does it for you)`,
      )
    }
    const signals = new Promise<void>((r) => {
      process.once('SIGINT', () => r())
      process.once('SIGTERM', () => r())
    })
    const sandboxPort = port(v['sandbox-port'], '--sandbox-port')
    const loopbackPort = port(v['loopback-port'], '--loopback-port')
    const rt = await createConsoleRuntime({
      host: 'web',
      ...(v['data-dir'] ? { dataDir: v['data-dir'] } : {}),
      ...(sandboxPort !== undefined ? { sandboxPort } : {}),
      ...(loopbackPort !== undefined ? { loopbackPort } : {}),
      log: writeErrLine,
    })
    stop = rt.stop
    if (!v['no-sandbox']) {
      const started = await rt.handlers['environments.startLocalSandbox']()
      if (!started.ok) throw new AppError(started.error.code, started.error)
    }
    const host = await startWebHost({
      handlers: rt.handlers as unknown as HandlerTable,
      subscribe: rt.services.subscribe,
      rendererDir,
      port: port(v.port, '--port') ?? 0,
    })
    const previous = stop
    stop = async () => {
      await host.stop()
      await previous()
    }
    const sb = rt.sandbox()
    if (v.json) {
      writeJsonOut({
        url: host.url,
        origin: host.origin,
        port: host.port,
        dataDir: rt.dataDir,
        ...(sb ? { sandbox: { baseUrl: sb.baseUrl, authUrl: sb.authUrl, directoryUrl: sb.directoryUrl } } : {}),
        loopbackRedirectUri: rt.services.info.loopbackRedirectUri ?? null,
      })
    }
    const out = { write: v.json ? writeErr : writeOut }
    if (intro) out.write(intro + '\n')
    out.write(
      `OB Console is running at ${host.url}\n  (open it in a browser on this machine; the token in the address is this launch's key)\n`,
    )
    if (sb) out.write(`  local sandbox: base_url ${sb.baseUrl}, auth_url ${sb.authUrl}, data in ${sb.dataDir}\n`)
    out.write('Stop with Ctrl+C.\n')
    await signals
    return 0
  } catch (err) {
    return reportError(err, SERVE_USAGE)
  } finally {
    await stop?.()
  }
}
