/**
 * The P3 floor: a bare Node https server with the sandbox's mutual-TLS settings (its server certificate
 * and key, its CA bundle, client certificate required and verified, TLS 1.2 minimum) that answers every
 * request with one fixed body: the bytes of a transactions page the sandbox served.
 *
 * Run as a child process: `node --import tsx floor-server.ts <sandbox data dir> <body file>`; prints
 * `{"port":N}` on stdout when listening, stops on SIGTERM.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

const [dataDir, bodyFile] = process.argv.slice(2)
if (!dataDir || !bodyFile) {
  process.stderr.write('usage: floor-server.ts <sandbox data dir> <body file>\n')
  process.exit(2)
}
const pki = join(dataDir, 'pki')
const body = readFileSync(bodyFile)
const server = createServer({
  key: readFileSync(join(pki, 'server.key')),
  cert: readFileSync(join(pki, 'server.pem')),
  ca: readFileSync(join(pki, 'ca-bundle.pem')),
  minVersion: 'TLSv1.2',
  requestCert: true,
  rejectUnauthorized: true,
})
server.on('request', (req, res) => {
  req.resume()
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  res.end(body)
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n')
})
process.once('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
