/**
 * A TCP round-robin balancer for the tests of several sandbox instances: TLS passes through untouched (the
 * client certificate reaches the instance), as with HAProxy in `mode tcp` (deploy/haproxy.cfg). It listens on
 * three consecutive ports of 127.0.0.1, one per origin of the sandbox ({base_url}, {auth_url}, directory),
 * and sends each new connection to the next instance's port of that origin. An instance that refuses the
 * connection (stopped, killed, restarting) is skipped for the next one, as HAProxy's `option redispatch`
 * does; a connection in flight to an instance that dies is cut, as it would be behind any balancer.
 */
import { connect, createServer, type Socket } from 'node:net'
import { freeConsecutivePorts, listenConsecutive } from './free-ports.ts'

/** The three ports of one sandbox instance, in origin order: base, auth, directory. */
export type OriginPorts = readonly [number, number, number]

export interface TcpBalancer {
  /** The first of the three front ports ({base_url}); {auth_url} is port + 1, the directory port + 2. */
  port: number
  /** Connections sent to each backend so far, by backend index (all three origins together). */
  connections(): number[]
  /** Connections that found no backend listening at all (closed at once). */
  refused(): number
  stop(): Promise<void>
}

/** Starts the balancer in front of `backends` (each instance's three ports), on three free consecutive ports. */
export async function startTcpBalancer(backends: readonly OriginPorts[]): Promise<TcpBalancer> {
  const counts = backends.map(() => 0)
  let refused = 0
  const next = [0, 0, 0]
  const open = new Set<Socket>()

  /** Connects `client` to the first backend (from the round-robin position) that accepts, or closes it. */
  function forward(client: Socket, origin: 0 | 1 | 2): void {
    open.add(client)
    client.once('close', () => open.delete(client))
    client.on('error', () => client.destroy())
    const start = next[origin]!
    next[origin] = (start + 1) % backends.length
    const attempt = (tried: number): void => {
      if (tried === backends.length) {
        refused++
        client.destroy()
        return
      }
      const index = (start + tried) % backends.length
      const upstream = connect(backends[index]![origin], '127.0.0.1')
      let connected = false
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (!connected && err.code === 'ECONNREFUSED') attempt(tried + 1)
        else client.destroy()
      })
      upstream.once('connect', () => {
        connected = true
        counts[index]!++
        open.add(upstream)
        // A graceful end passes through the pipes; a reset (an instance killed) is the error above.
        upstream.once('close', () => open.delete(upstream))
        client.once('close', () => upstream.destroy())
        client.pipe(upstream)
        upstream.pipe(client)
        client.resume()
      })
    }
    attempt(0)
  }

  const servers = ([0, 1, 2] as const).map((origin) =>
    createServer({ pauseOnConnect: true }, (client) => forward(client, origin)),
  )
  for (let attempt = 0; ; attempt++) {
    try {
      const base = await freeConsecutivePorts(3)
      await listenConsecutive(servers, base)
      return {
        port: base,
        connections: () => [...counts],
        refused: () => refused,
        stop: async () => {
          for (const socket of open) socket.destroy()
          await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
        },
      }
    } catch (err) {
      // Taken between the probe and the listen: try other ports, a few times.
      if (attempt === 5) throw err
    }
  }
}
