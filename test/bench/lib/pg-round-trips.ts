/**
 * A TCP proxy on 127.0.0.1 between a PostgreSQL client (the sandbox's pool) and a server, counting the
 * frontend messages that end a round trip: `Q` (a simple query) and `S` (the Sync that ends an extended-protocol
 * exchange: Parse/Bind/Describe/Execute, one per query for node-postgres). Bytes are forwarded untouched.
 *
 * The frontend stream of a connection starts with untyped packets (an int32 length, then an int32 code): the
 * startup message (protocol 3.0), or an SSL/GSS encryption request (the server then answers one byte) or a
 * cancel request. These are not counted. After the startup message every packet is typed (a byte, then an
 * int32 length that counts itself). A connection the server agrees to encrypt cannot be read: it is counted in
 * `unread` (the figures then undercount, and the bench says so).
 */
import { createServer, connect, type Server, type Socket } from 'node:net'

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const PROTOCOL_3 = 196608

export interface RoundTripCounts {
  /** `Q` messages. */
  simpleQueries: number
  /** `S` messages. */
  syncs: number
  /** simpleQueries + syncs. */
  roundTrips: number
  /** Connections the proxy accepted. */
  connections: number
  /** Connections whose stream could not be read to the end (encrypted, or not PostgreSQL's protocol 3.0). */
  unread: number
}

export interface PgRoundTripProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url: string
  counts(): RoundTripCounts
  /**
   * The round trips so far by statement: the text of a `Q`, or for a Sync the statement its exchange ran (the
   * last Parse, or the prepared statement a Bind named), whitespace collapsed; `(sync)` when there was none.
   */
  statements(): Map<string, number>
  /** Closes the listener and every proxied connection. */
  stop(): Promise<void>
}

/** Reads one connection's frontend stream, message by message, calling `onMessage` for each typed message. */
class FrontendReader {
  #buf: Buffer = Buffer.alloc(0)
  #typed = false
  /** An encryption request was sent: the server's next byte says whether the stream stays readable. */
  awaitingEncryptionAnswer = false
  opaque = false

  constructor(
    private readonly onMessage: (type: string, body: Buffer) => void,
    private readonly onUnread: () => void,
  ) {}

  #giveUp(): void {
    this.opaque = true
    this.#buf = Buffer.alloc(0)
    this.onUnread()
  }

  push(chunk: Buffer): void {
    if (this.opaque) return
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, chunk]) : chunk
    for (;;) {
      const header = this.#typed ? 5 : 4
      if (this.#buf.length < header) return
      // Typed: the length counts itself, not the type byte. Untyped: it counts itself and the code.
      const length = this.#typed ? this.#buf.readInt32BE(1) + 1 : this.#buf.readInt32BE(0)
      if (length < (this.#typed ? 5 : 8)) {
        this.#giveUp() // not the protocol this proxy reads: stop counting on this connection
        return
      }
      if (this.#buf.length < length) return
      if (this.#typed) this.onMessage(String.fromCharCode(this.#buf[0]!), this.#buf.subarray(5, length))
      else {
        const code = this.#buf.readInt32BE(4)
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) this.awaitingEncryptionAnswer = true
        else if (code === PROTOCOL_3) this.#typed = true
      }
      this.#buf = this.#buf.subarray(length)
    }
  }

  /** The server's answer to an encryption request: `S` or `G` means the rest cannot be read. */
  serverByte(first: number): void {
    this.awaitingEncryptionAnswer = false
    if (first === 0x53 || first === 0x47) this.#giveUp()
  }
}

/** The first `n` NUL-terminated strings of a message body. */
function cStrings(body: Buffer, n: number): string[] {
  const out: string[] = []
  let at = 0
  while (out.length < n && at <= body.length) {
    const end = body.indexOf(0, at)
    const stop = end < 0 ? body.length : end
    out.push(body.toString('utf8', at, stop))
    at = stop + 1
  }
  return out
}

/** Starts the proxy in front of the server `url` names (`postgres://user@host:port/db`). */
export async function startPgRoundTripProxy(url: string): Promise<PgRoundTripProxy> {
  const target = new URL(url)
  const host = target.hostname
  const port = Number(target.port || 5432)
  const counts: RoundTripCounts = { simpleQueries: 0, syncs: 0, roundTrips: 0, connections: 0, unread: 0 }
  const sockets = new Set<Socket>()
  const statements = new Map<string, number>()
  const tally = (text: string) => {
    const key = text.replace(/\s+/g, ' ').trim()
    statements.set(key, (statements.get(key) ?? 0) + 1)
  }
  const server: Server = createServer((client) => {
    counts.connections++
    const upstream = connect({ host, port })
    sockets.add(client).add(upstream)
    const prepared = new Map<string, string>()
    let pending: string | undefined
    const reader = new FrontendReader(
      (type, body) => {
        if (type === 'P') {
          const [name, text] = cStrings(body, 2)
          if (name) prepared.set(name, text!)
          pending = text
          return
        }
        if (type === 'B') {
          const [, name] = cStrings(body, 2)
          if (name) pending = prepared.get(name) ?? `(prepared statement ${name})`
          return
        }
        if (type === 'Q') {
          counts.simpleQueries++
          tally(cStrings(body, 1)[0]!)
        } else if (type === 'S') {
          counts.syncs++
          tally(pending ?? '(sync)')
          pending = undefined
        } else return
        counts.roundTrips++
      },
      () => counts.unread++,
    )
    client.on('data', (chunk: Buffer) => {
      reader.push(chunk)
      if (!upstream.write(chunk)) client.pause()
    })
    upstream.on('drain', () => client.resume())
    client.on('drain', () => upstream.resume())
    upstream.on('data', (chunk: Buffer) => {
      if (reader.awaitingEncryptionAnswer && chunk.length) reader.serverByte(chunk[0]!)
      if (!client.write(chunk)) upstream.pause()
    })
    const close = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('close', close).on('error', close)
    upstream.on('close', close).on('error', close)
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => done())
  })
  const proxied = new URL(url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String((server.address() as { port: number }).port)
  return {
    url: proxied.toString(),
    counts: () => ({ ...counts }),
    statements: () => new Map(statements),
    stop: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy()
        server.close(() => done())
      }),
  }
}
