import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Server } from 'node:https'
import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import { editJsonBody } from './body-edit.ts'
import { DEFAULT_OVERSIZE_BYTES, type Fault, type SandboxOrigin } from './fault-rules.ts'
import type { FaultSet } from './fault-set.ts'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** Paths of the fault admin endpoint: never faulted, so a rule can always be cleared. */
const ADMIN_PATH = /^\/admin\/faults(\/|$)/

/** A gateway's HTML error page, as a proxy in front of a bank answers when the bank is unreachable. */
export function gatewayErrorPage(status: number): string {
  const titles: Record<number, string> = {
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Temporarily Unavailable',
    504: 'Gateway Time-out',
  }
  const title = `${status} ${titles[status] ?? 'Error'}`
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
}

/**
 * Takes over `res`: whatever the handler writes is collected instead of sent, and `done` gets the
 * status, headers (as set on `res`) and the whole body once the handler ends the answer. The handler's
 * effects (a consent stored, a payment made) are kept: only its answer is held back.
 */
function captureAnswer(res: ServerResponse, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = []
  const own = res as unknown as Record<string, unknown>
  const push = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
    )
  }
  own.writeHead = (status: number, reason?: unknown, headers?: unknown) => {
    res.statusCode = status
    if (typeof reason === 'string') res.statusMessage = reason
    const h = (typeof reason === 'object' ? reason : headers) as OutgoingHttpHeaders | Array<string> | undefined
    if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) res.setHeader(h[i]!, h[i + 1]!)
    else if (h) for (const [k, v] of Object.entries(h)) if (v !== undefined) res.setHeader(k, v)
    return res
  }
  own.flushHeaders = () => {}
  own.write = (chunk: unknown, encoding?: unknown, cb?: unknown) => {
    push(chunk, encoding)
    const callback = typeof encoding === 'function' ? encoding : cb
    if (typeof callback === 'function') process.nextTick(callback as () => void)
    return true
  }
  own.end = (chunk?: unknown, encoding?: unknown, cb?: unknown) => {
    push(chunk, encoding)
    // Back to the real methods before anything is sent.
    delete own.writeHead
    delete own.flushHeaders
    delete own.write
    delete own.end
    done(Buffer.concat(chunks))
    const callback = [chunk, encoding, cb].find((a) => typeof a === 'function')
    if (callback) process.nextTick(callback as () => void)
    return res
  }
}

/** Sends `body` as the whole answer, keeping the status and headers the handler set. */
function sendWhole(res: ServerResponse, body: Buffer): void {
  res.removeHeader('transfer-encoding')
  res.setHeader('content-length', body.length)
  res.end(body)
}

/** A transactions-like page of exactly `bytes` bytes, produced as it is read. */
function oversizeStream(bytes: number): Readable {
  const head = Buffer.from('{"Data":{"Transaction":[')
  const entry =
    '{"AccountId":"oversize","TransactionId":"filler","CreditDebitIndicator":"Debit","Status":"Booked","Amount":{"Amount":"1.00","Currency":"GBP"}},'
  const filler = Buffer.from(entry.repeat(Math.ceil(65536 / entry.length)))
  let sent = 0
  return new Readable({
    read() {
      while (sent < bytes) {
        const source = sent === 0 ? head : filler
        const chunk = source.subarray(0, Math.min(source.length, bytes - sent))
        sent += chunk.length
        if (!this.push(chunk)) return
      }
      this.push(null)
    },
  })
}

function destroyAfter(res: ServerResponse): void {
  const socket = res.socket as (Socket & { destroySoon?: () => void }) | null
  if (!socket) return
  if (socket.destroySoon) socket.destroySoon()
  else socket.destroy()
}

/** Applies one fault to a request; `handle` runs the sandbox's own handler. */
export function applyFault(
  fault: Exclude<Fault, { kind: 'tls-handshake' }>,
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => void,
): void {
  switch (fault.kind) {
    case 'latency': {
      setTimeout(handle, fault.ms)
      return
    }
    case 'status': {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(fault.headers ?? {})) headers[k.toLowerCase()] = v
      let body: Buffer
      let contentType: string | undefined
      if (fault.body === undefined || fault.body === null) body = Buffer.alloc(0)
      else if (typeof fault.body === 'string') {
        body = Buffer.from(fault.body)
        contentType = 'text/plain; charset=utf-8'
      } else {
        body = Buffer.from(JSON.stringify(fault.body))
        contentType = 'application/json; charset=utf-8'
      }
      contentType = fault.contentType ?? headers['content-type'] ?? contentType
      delete headers['content-type']
      res.writeHead(fault.status, {
        ...headers,
        ...(contentType ? { 'content-type': contentType } : {}),
        'content-length': body.length,
      })
      res.end(body)
      return
    }
    case 'html-error': {
      const body = Buffer.from(gatewayErrorPage(fault.status ?? 502))
      res.writeHead(fault.status ?? 502, {
        'content-type': 'text/html',
        'content-length': body.length,
        server: 'nginx',
      })
      res.end(body)
      return
    }
    case 'reset': {
      req.socket.destroy()
      return
    }
    case 'lost-response': {
      captureAnswer(res, () => req.socket.destroy())
      handle()
      return
    }
    case 'truncate': {
      captureAnswer(res, (body) => {
        const keep = Math.min(fault.bytes ?? Math.floor(body.length / 2), Math.max(body.length - 1, 0))
        res.removeHeader('transfer-encoding')
        res.setHeader('content-length', body.length)
        res.write(body.subarray(0, keep), () => destroyAfter(res))
      })
      handle()
      return
    }
    case 'mutate':
    case 'pagination': {
      captureAnswer(res, (body) => sendWhole(res, editJsonBody(body, fault) ?? body))
      handle()
      return
    }
    case 'oversize': {
      const bytes = fault.bytes ?? DEFAULT_OVERSIZE_BYTES
      res.writeHead(200, { 'content-type': 'application/json', ...(fault.chunked ? {} : { 'content-length': bytes }) })
      const stream = oversizeStream(bytes)
      stream.pipe(res)
      // The client gives up long before the end: stop producing.
      res.once('close', () => stream.destroy())
      return
    }
  }
}

/**
 * The request listener of one origin with fault mode in front: a request a rule matches gets the
 * rule's fault, every other request goes to `listener` untouched. Matching is in memory; only a request a
 * rule matches waits for the store to count it. When counting fails, the request goes through unfaulted.
 */
export function faultingListener(
  origin: SandboxOrigin,
  faults: FaultSet,
  listener: Listener,
  log: (line: string) => void,
): Listener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    const method = req.method ?? 'GET'
    if (faults.size === 0 || (origin === 'directory' && ADMIN_PATH.test(path))) return listener(req, res)
    if (!faults.mayFaultRequest(origin, method, path)) return listener(req, res)
    faults.forRequest(origin, method, path).then(
      (rule) => {
        if (!rule || rule.fault.kind === 'tls-handshake') return listener(req, res)
        log(`fault ${rule.id} (${rule.fault.kind}) on ${origin} ${method} ${path}`)
        applyFault(rule.fault, req, res, () => listener(req, res))
      },
      (err: Error) => {
        log(`fault mode: counting a request in the store failed (${err.message}); the request goes through unfaulted`)
        listener(req, res)
      },
    )
  }
}

/** A TLS `handshake_failure` alert (TLS 1.2 record), as a server that refuses the handshake sends. */
const HANDSHAKE_FAILURE_ALERT = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])

/**
 * While a `tls-handshake` rule lasts, new connections to this origin's server fail the TLS handshake.
 * The server's own connection handling (TLS) is held back while a rule that may apply is counted in the
 * store; the bytes the client sends meanwhile wait in the socket and are read by TLS when it starts.
 */
export function guardHandshakes(
  server: Server,
  origin: SandboxOrigin,
  faults: FaultSet,
  log: (line: string) => void,
): void {
  const own = server.listeners('connection') as Array<(socket: Socket) => void>
  server.removeAllListeners('connection')
  server.on('connection', (socket: Socket) => {
    const proceed = () => {
      for (const listener of own) listener.call(server, socket)
    }
    if (faults.size === 0 || !faults.mayFailHandshake(origin)) return proceed()
    // The client may give up while the rule is counted: nothing to report then.
    const ignore = () => {}
    socket.on('error', ignore)
    const settle = (rule: { id: string } | undefined) => {
      socket.off('error', ignore)
      if (socket.destroyed) return
      if (!rule) return proceed()
      log(`fault ${rule.id} (tls-handshake) on a new ${origin} connection`)
      socket.end(HANDSHAKE_FAILURE_ALERT)
      socket.destroySoon()
    }
    faults.forConnection(origin).then(settle, (err: Error) => {
      log(`fault mode: counting a connection in the store failed (${err.message}); the handshake goes on`)
      settle(undefined)
    })
  })
}
