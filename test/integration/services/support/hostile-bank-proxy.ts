/**
 * A hostile bank of the tests' own: a mutual-TLS HTTPS server in front of the local sandbox's `{base_url}`
 * that forwards every request (with the TPP's own transport certificate, so certificate-bound tokens still
 * match) and lets a test replace or rewrite the answer of the requests one rule matches. The console talks
 * to it exactly as to a bank: its environment's base URL is the proxy's, and the sandbox writes the proxy's
 * address in its `Links` (as a bank behind a gateway does), so its signed bodies are forwarded unchanged.
 *
 * An answer is one of:
 * - `replace`: a status, headers (pairs, so a header may repeat) and body bytes, sent by Node's HTTP server;
 * - `rewrite`: the sandbox's real answer (status, headers, body bytes) edited by a function; a signed answer
 *   whose `x-jws-signature` the edit left as it was is signed again over the new body with the bank's key
 *   (the fault is then the edit alone);
 * - `raw`: bytes written to the TLS socket as they are (malformed HTTP: bare LF, control bytes, oversized
 *   headers), then the connection closed.
 */
import { createHash, X509Certificate } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { Agent, request } from 'undici'
import {
  createSelfSignedCertificate,
  issueCertificate,
  type GeneratedCertificate,
} from '../../../../src-main/certificates/generate.ts'
import type { RunningSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { SANDBOX_ASPSP_ORG_ID } from '../../../../src-main/local-sandbox/pis/jws/ob-jws-header.ts'
import { signDetachedJws } from '../../../../src-main/local-sandbox/pis/jws/sign-detached-jws.ts'

/** An answer as the sandbox gave it, or as a rule makes it. */
export interface Answer {
  status: number
  /** Header pairs in order; a name may repeat. */
  headers: Array<[string, string]>
  body: Buffer
}

export type HostileAnswer =
  | { kind: 'replace'; status: number; headers?: Array<[string, string]>; body?: Buffer | string }
  | { kind: 'rewrite'; edit: (upstream: Answer) => Answer }
  | { kind: 'raw'; bytes: (upstream: Answer) => Buffer }

export interface HostileRule {
  method: string
  /** The path (no query); `*` stands for one segment. */
  path: string
  answer: HostileAnswer
  /** Matching requests let through before the rule applies (page 2: skip 1). */
  skip?: number
}

export interface SeenRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  /** The SHA-256 thumbprint (base64url) of the client certificate the console presented, if any. */
  clientCertificate?: string
  /** What the proxy answered: `upstream` (forwarded as is) or the rule's kind. */
  answered: 'upstream' | HostileAnswer['kind']
}

export interface HostileBankProxy {
  url: string
  /** The proxy's CA (PEM), for the console's CA bundle. */
  caPem: string
  /** The certificate and key the proxy presents to the sandbox (the TPP's transport identity). */
  useIdentity(identity: { certPem: string; keyPem: string }): void
  /** Replaces the rules in force (one per case); hits start at 0. */
  set(rule: HostileRule | undefined): void
  /** How many requests the rule in force answered. */
  hits(): number
  /** Every request received, oldest first. */
  seen: SeenRequest[]
  stop(): Promise<void>
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'proxy-connection'])

function matches(rule: HostileRule, method: string, path: string): boolean {
  if (rule.method !== method) return false
  const want = rule.path.split('/')
  const got = path.split('/')
  return want.length === got.length && want.every((w, i) => w === '*' || w === got[i])
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** The status line and header block of an answer, as bytes (for `raw` rules that start from the real answer). */
export function headBytes(status: number, headers: Array<[string, string]>, eol = '\r\n'): Buffer {
  const lines = [`HTTP/1.1 ${status} X`, ...headers.map(([k, v]) => `${k}: ${v}`)]
  return Buffer.from(`${lines.join(eol)}${eol}${eol}`, 'latin1')
}

/** The real answer's headers without the framing ones (a rule sets its own Content-Length). */
export function contentHeaders(headers: Array<[string, string]>): Array<[string, string]> {
  return headers.filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase()) && k.toLowerCase() !== 'content-length')
}

/**
 * Starts the proxy in front of `sandbox` and makes the sandbox write the proxy's address into its answers.
 * The proxy's server certificate comes from a CA generated here (`caPem`).
 */
export async function startHostileBankProxy(sandbox: RunningSandbox): Promise<HostileBankProxy> {
  const ca = await createSelfSignedCertificate({
    subject: 'CN=Hostile Gateway CA, O=Test',
    ca: { pathLength: 0 },
    keyType: 'EC-P256',
  })
  const server: GeneratedCertificate = await issueCertificate(ca, {
    subject: 'CN=localhost',
    subjectAltNames: [
      { type: 'ip', value: '127.0.0.1' },
      { type: 'dns', value: 'localhost' },
    ],
    extendedKeyUsages: ['serverAuth'],
    keyType: 'EC-P256',
  })
  const upstream = sandbox.baseUrl
  let agent = new Agent({ connect: { ca: sandbox.caBundlePem } })
  let rule: HostileRule | undefined
  let matched = 0
  let hits = 0
  const seen: SeenRequest[] = []

  async function forward(req: IncomingMessage, body: Buffer): Promise<Answer> {
    const headers: Record<string, string | string[]> = {}
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v
    const res = await request(`${upstream}${req.url}`, {
      method: req.method as 'GET',
      headers,
      ...(body.length ? { body } : {}),
      dispatcher: agent,
    })
    const raw = Buffer.from(await res.body.arrayBuffer())
    const pairs: Array<[string, string]> = []
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue
      for (const one of Array.isArray(v) ? v : [v]) pairs.push([k, one])
    }
    return { status: res.statusCode, headers: pairs, body: raw }
  }

  async function signedAgain(real: Answer, edited: Answer): Promise<Answer> {
    const signature = (a: Answer) => a.headers.find(([k]) => k.toLowerCase() === 'x-jws-signature')?.[1]
    const was = signature(real)
    if (!was || signature(edited) !== was) return edited
    const again = await signDetachedJws(edited.body, sandbox.context.signingKey, {
      iss: SANDBOX_ASPSP_ORG_ID,
      iat: Math.floor(Date.now() / 1000),
    })
    return {
      ...edited,
      headers: edited.headers.map(([k, v]) => [k, k.toLowerCase() === 'x-jws-signature' ? again : v]),
    }
  }

  function send(res: ServerResponse, answer: Answer): void {
    const headers = contentHeaders(answer.headers)
    res.writeHead(answer.status, [...headers.flat(), 'content-length', String(answer.body.length)])
    res.end(answer.body)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!
    const peer = (req.socket as TLSSocket).getPeerCertificate()
    const record: SeenRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      answered: 'upstream',
      ...(peer?.raw ? { clientCertificate: createHash('sha256').update(peer.raw).digest('base64url') } : {}),
    }
    seen.push(record)
    const body = await readBody(req)
    const applies = rule && matches(rule, record.method, path) && matched++ >= (rule.skip ?? 0)
    if (!applies || !rule) return send(res, await forward(req, body))
    hits++
    const answer = rule.answer
    record.answered = answer.kind
    if (answer.kind === 'replace') {
      const bytes = typeof answer.body === 'string' ? Buffer.from(answer.body) : (answer.body ?? Buffer.alloc(0))
      return send(res, { status: answer.status, headers: answer.headers ?? [], body: bytes })
    }
    const real = await forward(req, body)
    if (answer.kind === 'rewrite') return send(res, await signedAgain(real, answer.edit(real)))
    // Raw bytes: the HTTP server never writes this answer; the socket gets the bytes and closes.
    const socket = req.socket
    socket.end(answer.bytes(real))
  }

  const https: Server = createServer({
    cert: server.certPem,
    key: server.keyPem,
    requestCert: true,
    rejectUnauthorized: false,
    // The tests' oversized headers are the answers', not the requests'.
    maxHeaderSize: 64 * 1024,
  })
  https.on('request', (req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' })
      res.end(`hostile bank proxy: ${err.message}`)
    })
  })
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve))
  const url = `https://127.0.0.1:${(https.address() as AddressInfo).port}`
  // The sandbox's Links (and the signed bodies that hold them) name the proxy, as a bank behind a gateway does.
  sandbox.context.addresses.baseUrl = url

  return {
    url,
    caPem: ca.certPem,
    useIdentity(identity) {
      const old = agent
      agent = new Agent({ connect: { ca: sandbox.caBundlePem, cert: identity.certPem, key: identity.keyPem } })
      void old.close()
      // Checked here so a wrong identity fails at once, not as a 401 in some case.
      new X509Certificate(identity.certPem)
    },
    set(next) {
      rule = next
      matched = 0
      hits = 0
    },
    hits: () => hits,
    seen,
    async stop() {
      https.closeAllConnections()
      await new Promise<void>((resolve) => https.close(() => resolve()))
      await agent.close()
    },
  }
}
