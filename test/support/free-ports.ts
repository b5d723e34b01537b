/**
 * Free ports of 127.0.0.1 for servers the tests start as processes of their own (sandbox instances,
 * PostgreSQL), which must be told a port before they listen.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'

/** Listens `servers` on `base`, `base + 1`, ... of 127.0.0.1, or rejects (none left listening) when one is taken. */
export async function listenConsecutive(servers: Server[], base: number): Promise<void> {
  const listening: Server[] = []
  try {
    for (const [i, server] of servers.entries()) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(base + i, '127.0.0.1', () => {
          server.off('error', reject)
          resolve()
        })
      })
      listening.push(server)
    }
  } catch (err) {
    await Promise.all(listening.map((s) => new Promise((r) => s.close(r))))
    throw err
  }
}

/**
 * The first port of the system's ephemeral range, from which it gives the local port of every outgoing
 * connection and of every `listen(0)`: Linux says it in /proc (32768 by default); macOS and Windows start
 * theirs at 49152.
 */
function ephemeralFloor(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    if (Number.isInteger(first) && first > 0) return first
  } catch {
    // Not Linux: the IANA range's start, which macOS and Windows keep.
  }
  return 49_152
}

/**
 * A first port N of `count` free ports N, N+1, ... on 127.0.0.1 (checked free now; a sandbox given
 * `--port N`, a PostgreSQL given `-p N` listens there). Chosen below the ephemeral range: in that range a
 * port free now can be the local port of an outgoing connection (a PostgreSQL client's, an HTTP client's) a
 * moment later, and the server then refuses to start ("port N is in use").
 */
export async function freeConsecutivePorts(count: number): Promise<number> {
  const low = 10_000
  const high = Math.max(low + 1_000, Math.min(ephemeralFloor(), 65_536) - count)
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = low + Math.floor(Math.random() * (high - low))
    const probes = Array.from({ length: count }, () => createServer())
    try {
      await listenConsecutive(probes, base)
      await Promise.all(probes.map((s) => new Promise((r) => s.close(r))))
      return base
    } catch {
      // One of them is taken: another base.
    }
  }
  throw new Error(`found no ${count} consecutive free ports on 127.0.0.1 below ${high + count} in 50 attempts`)
}

/** One free port of 127.0.0.1 below the ephemeral range (see freeConsecutivePorts). */
export const freePort = (): Promise<number> => freeConsecutivePorts(1)
