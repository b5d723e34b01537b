import type { IncomingMessage, Server, ServerResponse } from 'node:http'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** `GET /livez`: the process is up and answering. */
export const LIVEZ_PATH = '/livez'
/** `GET /readyz`: the instance can serve the bank (store reachable, schema current, keys loaded, not stopping). */
export const READYZ_PATH = '/readyz'

/**
 * An instance's life as its health endpoints and its stop see it: ready once started, unready from the
 * moment it starts stopping; requests in flight counted, so a stop lets them finish (bounded).
 */
export class Lifecycle {
  #ready = false
  #stopping = false
  #inFlight = 0
  #drained: Array<() => void> = []

  /**
   * @param readiness why the instance cannot serve now (each problem one sentence), or an empty list;
   *   asked on every `/readyz`, so it looks at the store as it is.
   */
  constructor(private readonly readiness: () => Promise<string[]>) {}

  /** Start-up is complete: keys loaded, store open, servers listening. */
  started(): void {
    this.#ready = true
  }

  /**
   * The request listener of one origin with `/livez` and `/readyz` answered first (no client certificate,
   * no fault rule, no token: a balancer or supervisor calls them), every request counted while in flight.
   */
  listener(inner: Listener): Listener {
    return (req, res) => {
      const path = (req.url ?? '/').split('?')[0]
      if (path === LIVEZ_PATH || path === READYZ_PATH) return void this.#health(path, req, res)
      this.#inFlight++
      res.once('close', () => {
        this.#inFlight--
        if (this.#inFlight === 0) for (const done of this.#drained.splice(0)) done()
      })
      inner(req, res)
    }
  }

  async #health(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: object) => {
      const text = JSON.stringify(body)
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(text),
        ...(status === 405 ? { allow: 'GET, HEAD' } : {}),
        // A stopping instance asks its clients not to keep this connection.
        ...(this.#stopping ? { connection: 'close' } : {}),
      })
      res.end(req.method === 'HEAD' ? undefined : text)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(405, { status: 'method not allowed', problems: [`${path} answers GET and HEAD only`] })
    if (path === LIVEZ_PATH) return send(200, { status: 'live' })
    const problems = this.#stopping
      ? ['the instance is stopping (SIGTERM): it finishes the requests in flight and takes no new work']
      : !this.#ready
        ? ['the instance is still starting']
        : await this.readiness().catch((err: Error) => [`the readiness check failed: ${err.message}`])
    send(problems.length ? 503 : 200, problems.length ? { status: 'not ready', problems } : { status: 'ready' })
  }

  /**
   * Stops the servers: unready at once, no new connections, idle keep-alive connections closed; the
   * requests in flight may finish within `graceMs`, then every connection is closed. Resolves when the
   * servers have closed.
   */
  async stop(servers: readonly Server[], graceMs: number): Promise<void> {
    this.#stopping = true
    const closed = Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    for (const s of servers) s.closeIdleConnections()
    if (graceMs > 0 && this.#inFlight > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        new Promise<void>((resolve) => this.#drained.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ])
      clearTimeout(timer)
    }
    for (const s of servers) s.closeAllConnections()
    await closed
  }
}
