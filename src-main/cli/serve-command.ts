import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { AppError } from '../core/app-error.ts'
import { startWebHost } from '../web-host/web-host.ts'
import { reportError, UsageError } from './cli-support.ts'
import { portFlag, parseFlags, writableDir } from './flags.ts'
import { createConsoleRuntime } from './console-runtime.ts'
import { onServePort } from './serve-port.ts'
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

/** The flags of `serve` (and `start`), checked before anything is built or started. */
export function parseServeFlags(argv: string[]) {
  const v = parseFlags(argv, OPTIONS).values
  const port = (flag: 'port' | 'sandbox-port' | 'loopback-port', max = 65535) =>
    v[flag] === undefined ? undefined : portFlag(flag, v[flag], max)
  const checked = {
    port: port('port'),
    // The sandbox takes the two ports after its own.
    sandboxPort: port('sandbox-port', 65533),
    loopbackPort: port('loopback-port'),
    ...(v['data-dir'] !== undefined ? { dataDir: writableDir('data-dir', v['data-dir']) } : {}),
  }
  if (v['no-sandbox'] && v['sandbox-port'] !== undefined)
    throw new UsageError('--sandbox-port cannot go with --no-sandbox', 'Leave one of them out.')
  return { v, ...checked }
}

/** `ob-console serve`: the console in the browser, served with its contract on 127.0.0.1. */
export async function runServeCommand(argv: string[], intro?: string): Promise<number> {
  let stop: (() => Promise<void>) | undefined
  try {
    const { v, port, sandboxPort, loopbackPort, dataDir } = parseServeFlags(argv)
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
    const rt = await createConsoleRuntime({
      host: 'web',
      ...(dataDir ? { dataDir } : {}),
      ...(sandboxPort !== undefined ? { sandboxPort } : {}),
      ...(loopbackPort !== undefined ? { loopbackPort } : {}),
      log: writeErrLine,
    })
    stop = rt.stop
    if (!v['no-sandbox']) {
      const started = await rt.handlers['environments.startLocalSandbox']()
      if (!started.ok) throw new AppError(started.error.code, started.error)
    }
    const host = await onServePort(
      port,
      (p) =>
        startWebHost({
          ...rt.webHost,
          rendererDir,
          port: p,
        }),
      writeErrLine,
    )
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
