/**
 * The port `ob-console serve` listens on. Without `--port` it is the same on every start, so the browser sees
 * the same origin each time: it keeps what it keeps per origin (the theme chosen in the console, the console's
 * scripts in its cache) from one start to the next. No heavy imports: the usage text reads the default.
 */
import { UsageError } from './cli-support.ts'

/** `serve`'s port when `--port` is not given (next to the loopback redirect listener's 53682). */
export const DEFAULT_SERVE_PORT = 53681

/**
 * Starts what `listen` starts on `requested`, or without it on `defaultPort`; when the default is in use
 * (another console serving), on a free port instead, said through `notice`. A port given on the command line
 * that cannot be had is a usage error naming it and the way out.
 */
export async function onServePort<T>(
  requested: number | undefined,
  listen: (port: number) => Promise<T>,
  notice: (line: string) => void,
  defaultPort = DEFAULT_SERVE_PORT,
): Promise<T> {
  if (requested !== undefined) {
    try {
      return await listen(requested)
    } catch (err) {
      throw portError(err, requested) ?? err
    }
  }
  try {
    return await listen(defaultPort)
  } catch (err) {
    if (!portError(err, defaultPort)) throw err
    notice(
      `OB Console: port ${defaultPort} on 127.0.0.1 cannot be had (${(err as NodeJS.ErrnoException).code}: another console serving?), so this one serves on a free port; the browser keeps a theme choice per port. --port N chooses the port.`,
    )
    return listen(0)
  }
}

function portError(err: unknown, port: number): UsageError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  if (code === 'EADDRINUSE')
    return new UsageError(
      `port ${port} on 127.0.0.1 is in use (another OB Console, or another program), so the console cannot serve on it`,
      'Stop what uses it, choose another port with --port N, or --port 0 for a free one.',
      `listen EADDRINUSE 127.0.0.1:${port}`,
    )
  if (code === 'EACCES')
    return new UsageError(
      `port ${port} on 127.0.0.1 needs privileges this user lacks`,
      'Choose a port above 1023 with --port N, or --port 0 for a free one.',
      `listen EACCES 127.0.0.1:${port}`,
    )
  return undefined
}
