// Real TLS servers on 127.0.0.1 for the HTTP layer's integration tests, with certificates generated at
// run time: the environment's CA (server and good client certificates) and a foreign CA.
import { createServer as createHttpsServer, type Server, type ServerOptions } from 'node:https'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import {
  createSelfSignedCertificate,
  issueCertificate,
  type GeneratedCertificate,
} from '../../../src-main/certificates/generate.ts'

export interface TestPki {
  ca: GeneratedCertificate
  server: GeneratedCertificate
  client: GeneratedCertificate
  foreignCa: GeneratedCertificate
  foreignClient: GeneratedCertificate
  foreignServer: GeneratedCertificate
  expiredServer: GeneratedCertificate
  otherHostServer: GeneratedCertificate
}

const LOCAL = [
  { type: 'ip' as const, value: '127.0.0.1' },
  { type: 'dns' as const, value: 'localhost' },
]

export async function createTestPki(): Promise<TestPki> {
  const ca = await createSelfSignedCertificate({
    subject: 'CN=Environment CA, O=Test',
    ca: { pathLength: 0 },
    keyType: 'EC-P256',
  })
  const foreignCa = await createSelfSignedCertificate({
    subject: 'CN=Foreign CA, O=Elsewhere',
    ca: { pathLength: 0 },
    keyType: 'EC-P256',
  })
  return {
    ca,
    foreignCa,
    server: await issueCertificate(ca, {
      subject: 'CN=localhost',
      subjectAltNames: LOCAL,
      extendedKeyUsages: ['serverAuth'],
      keyType: 'EC-P256',
    }),
    client: await issueCertificate(ca, {
      subject: 'CN=SoftwareId123, OU=Org001, O=Example TPP, C=GB',
      extendedKeyUsages: ['clientAuth'],
    }),
    foreignClient: await issueCertificate(foreignCa, {
      subject: 'CN=SoftwareId123, OU=Org001, O=Example TPP, C=GB',
      extendedKeyUsages: ['clientAuth'],
    }),
    foreignServer: await issueCertificate(foreignCa, {
      subject: 'CN=localhost',
      subjectAltNames: LOCAL,
      extendedKeyUsages: ['serverAuth'],
      keyType: 'EC-P256',
    }),
    expiredServer: await issueCertificate(ca, {
      subject: 'CN=localhost',
      subjectAltNames: LOCAL,
      extendedKeyUsages: ['serverAuth'],
      keyType: 'EC-P256',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      validDays: 30,
    }),
    otherHostServer: await issueCertificate(ca, {
      subject: 'CN=bank.example',
      subjectAltNames: [{ type: 'dns', value: 'bank.example' }],
      extendedKeyUsages: ['serverAuth'],
      keyType: 'EC-P256',
    }),
  }
}

export interface RunningServer {
  url: string
  port: number
  /** TCP connections accepted. */
  connections: number
  /** Subject CN of the client certificate of each request ('' when none). */
  clientCertificates: string[]
  close(): Promise<void>
}

function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
  })
}

/** An HTTPS server; `handler` answers requests (default: 200 with a JSON body). */
export async function startHttpsServer(
  options: ServerOptions,
  handler?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RunningServer> {
  const state = { connections: 0, clientCertificates: [] as string[] }
  const server = createHttpsServer(options, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate?.()
    state.clientCertificates.push(peer && peer.subject ? String(peer.subject.CN ?? '') : '')
    if (handler) return handler(req, res)
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ ok: true, path: req.url }))
  })
  server.on('connection', () => {
    state.connections++
  })
  server.on('tlsClientError', () => {})
  const port = await listen(server)
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    get connections() {
      return state.connections
    },
    get clientCertificates() {
      return state.clientCertificates
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A plain TCP server whose connection handler does what the test needs (drop, speak HTTP...). */
export async function startTcpServer(onConnection: (socket: Socket) => void): Promise<RunningServer> {
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createTcpServer((socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    onConnection(socket)
  })
  const port = await listen(server)
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections
    },
    clientCertificates: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer()
  const port = await listen(server)
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
