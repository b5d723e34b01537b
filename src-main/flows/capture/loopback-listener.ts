import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseRedirect, type CapturedRedirect } from './redirect-params.ts'

/**
 * The loopback listener that catches the authorisation server's redirect on the registered redirect URI
 * (`http://127.0.0.1:<port>/callback`). The hybrid flow answers in the URL fragment, which browsers never
 * send to a server, so the page it serves reads `location.hash` in the browser and posts it back to
 * `/callback/capture`. Captures are matched to the waiting flow by `state`. Once a flow has the answer, the
 * page replaces its own address with `/callback` (`history.replaceState`), so the code and the ID token
 * stay neither in the address bar nor in the tab's history; an answer no flow took keeps the address, for
 * the user to paste into the console.
 */
export interface LoopbackListener {
  /** The redirect URI to register and send (`http://127.0.0.1:<port>/callback`). */
  redirectUri: string
  port: number
  /** Waits for the redirect carrying `state`; rejects after `timeoutMs`. */
  waitFor(state: string, timeoutMs: number): Promise<CapturedRedirect>
  /** Captures that arrived with a state nobody waits for (kept for the user to see, at most 20). */
  unmatched(): CapturedRedirect[]
  stop(): Promise<void>
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OB Console: authorisation returned</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}</style></head>
<body><main><h1>Authorisation returned</h1><p id="status" role="status">Handing the bank's answer to OB Console…</p></main>
<script src="/callback/capture.js"></script></body></html>`

const SCRIPT = `(function(){
  var status = document.getElementById('status');
  fetch('/callback/capture', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: location.href })
    .then(function (r) { return r.json() })
    .then(function (j) {
      status.textContent = j.message;
      if (j.handedOver) history.replaceState(null, '', location.pathname);
    })
    .catch(function () { status.textContent = 'OB Console is no longer listening. Copy this page\\'s address and paste it into the console.' })
})()`

/** The captures the listener holds: flows waiting by state, answers that came first, answers without a state. */
interface Captures {
  waiters: Map<string, (c: CapturedRedirect) => void>
  early: Map<string, CapturedRedirect>
  unmatched: CapturedRedirect[]
}

/** Hands a posted redirect to the flow waiting for its state (or keeps it), and says what became of it. */
function handOver(body: string, { waiters, early, unmatched }: Captures): { message: string; handedOver: boolean } {
  let message: string
  let handedOver = false
  try {
    const captured = parseRedirect(body, 'loopback')
    const waiter = captured.state ? waiters.get(captured.state) : undefined
    if (waiter && captured.state) {
      waiters.delete(captured.state)
      waiter(captured)
      handedOver = true
      message = captured.error
        ? `The bank returned "${captured.error}". OB Console shows what it means; you can close this tab.`
        : 'OB Console has the authorisation code. You can close this tab.'
    } else if (captured.state) {
      early.set(captured.state, captured)
      message =
        'OB Console received the answer, but no flow waits for its state now (the authorisation was started again, or it belongs to another console). If a flow still waits, copy this page\'s address and paste it into its "Returned URL" field.'
    } else {
      unmatched.push(captured)
      unmatched.splice(0, Math.max(0, unmatched.length - 20))
      message =
        "The answer carries no state, so OB Console cannot tell which flow it belongs to. Paste this page's address into the flow."
    }
  } catch (err) {
    message = (err as Error).message
  }
  return { message, handedOver }
}

/** Listens on 127.0.0.1 at `port`; a port in use is said in words. */
function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} on 127.0.0.1 is in use, so the redirect listener cannot start; stop what uses it or register another redirect URI port`,
            )
          : err,
      ),
    )
    server.listen(port, '127.0.0.1', () => resolve())
  })
}

/** The redirect carrying `state`: one that came first, else the next to come, else a timeout after `timeoutMs`. */
function waitForState(
  state: string,
  timeoutMs: number,
  { waiters, early }: Captures,
  redirectUri: string,
): Promise<CapturedRedirect> {
  const already = early.get(state)
  if (already) {
    early.delete(state)
    return Promise.resolve(already)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters.delete(state)
      reject(new Error(`no redirect with this state reached ${redirectUri} within ${Math.round(timeoutMs / 1000)} s`))
    }, timeoutMs)
    timer.unref()
    waiters.set(state, (c) => {
      clearTimeout(timer)
      resolve(c)
    })
  })
}

export async function startLoopbackListener(port = 0): Promise<LoopbackListener> {
  const waiters = new Map<string, (c: CapturedRedirect) => void>()
  const early = new Map<string, CapturedRedirect>()
  const unmatched: CapturedRedirect[] = []
  let boundPort = 0

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const host = req.headers.host
    if (host !== `127.0.0.1:${boundPort}` && host !== `localhost:${boundPort}`) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Wrong Host header.')
      return
    }
    if (req.method === 'GET' && path === '/callback') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy':
          "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'",
        'referrer-policy': 'no-referrer',
      })
      res.end(PAGE)
      return
    }
    if (req.method === 'GET' && path === '/callback/capture.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(SCRIPT)
      return
    }
    if (req.method === 'POST' && path === '/callback/capture') {
      const origin = req.headers.origin
      if (origin && origin !== `http://127.0.0.1:${boundPort}` && origin !== `http://localhost:${boundPort}`) {
        res.writeHead(403).end()
        return
      }
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (c: string) => {
        body += c
        if (body.length > 64 * 1024) req.destroy()
      })
      req.on('end', () => {
        const { message, handedOver } = handOver(body, { waiters, early, unmatched })
        res
          .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify({ message, handedOver }))
      })
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.')
  })

  await listen(server, port)
  boundPort = (server.address() as AddressInfo).port

  return {
    redirectUri: `http://127.0.0.1:${boundPort}/callback`,
    port: boundPort,
    waitFor: (state, timeoutMs) =>
      waitForState(state, timeoutMs, { waiters, early, unmatched }, `http://127.0.0.1:${boundPort}/callback`),
    unmatched: () => [...unmatched],
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
