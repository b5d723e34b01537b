import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { SandboxAddresses } from '../context.ts'
import type { LocalDirectory } from '../directory/directory.ts'
import { applyTransportTrust, type TransportCertificates, type TransportTrust } from '../http/peer-certificate.ts'
import { isLoopback, publicAddresses } from '../http/public-addresses.ts'
import type { EcosystemPki } from '../pki/types.ts'
import type { SandboxOptions } from '../sandbox-api.ts'

/** The address the servers listen on and answer as unless told otherwise: this machine only. */
export const HOST = '127.0.0.1'

/** The sandbox's three HTTPS servers: `{base_url}`, `{auth_url}` and the directory. */
export interface SandboxServers {
  base: Server
  auth: Server
  directory: Server
  all: Server[]
  /** Hands the started directory to the transport trust (it judges self-signed client certificates). */
  trustDirectory(directory: LocalDirectory): void
}

/**
 * The three servers, not yet listening. {base_url}: mutual TLS. {auth_url}: browsers reach it, and it serves the
 * token endpoint, which needs the client certificate: the certificate is asked for but the handshake never
 * refused; the token endpoint checks it per request (401 without one). The directory: server TLS only.
 * With self-signed certificates allowed, the handshake cannot judge a certificate (it knows no registered
 * keys): the handshake mode then closes an unaccepted connection right after the handshake instead.
 */
export function createSandboxServers(
  pki: EcosystemPki,
  tlsMode: 'explain' | 'handshake',
  transportCertificates: TransportCertificates,
): SandboxServers {
  const tls = {
    key: pki.serverTls.keyPem,
    cert: pki.serverTls.certPem,
    ca: pki.caBundlePem,
    minVersion: 'TLSv1.2' as const,
  }
  const base = createServer({
    ...tls,
    requestCert: true,
    rejectUnauthorized: tlsMode === 'handshake' && transportCertificates === 'ca-issued',
  })
  const auth = createServer({ ...tls, requestCert: true, rejectUnauthorized: false })
  let started: LocalDirectory | undefined
  const trust: TransportTrust = {
    mode: transportCertificates,
    selfSignedProblem: async (peer) => (started ? started.selfSignedProblem(peer) : 'the sandbox is still starting'),
  }
  applyTransportTrust(base, trust, tlsMode === 'handshake' ? (socket) => socket.destroy() : undefined)
  applyTransportTrust(auth, trust)
  const directory = createServer(tls)
  return { base, auth, directory, all: [base, auth, directory], trustDirectory: (d) => void (started = d) }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** Closes a listening server and the connections it holds. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/** The ports listened on and the addresses the sandbox answers as. */
export interface Listening {
  ports: { base: number; auth: number; directory: number }
  addresses: SandboxAddresses
}

/** Listens on `options.port` to port + 2 (three free ports for 0) and says so when reachable from the network. */
export async function listenAll(
  servers: SandboxServers,
  options: SandboxOptions,
  log: (line: string) => void,
): Promise<Listening> {
  const port = options.port ?? 0
  const bind = options.bind ?? HOST
  const base = await listen(servers.base, port, bind)
  const auth = await listen(servers.auth, port === 0 ? 0 : port + 1, bind)
  const directory = await listen(servers.directory, port === 0 ? 0 : port + 2, bind)
  const addresses: SandboxAddresses = publicAddresses({ host: options.publicHost ?? HOST, port: options.publicPort }, [
    base,
    auth,
    directory,
  ])
  if (!isLoopback(bind))
    log(
      `local sandbox: listening on ${bind}, so it is reachable from the network, not only from this machine; it answers as ${addresses.baseUrl}`,
    )
  return { ports: { base, auth, directory }, addresses }
}
