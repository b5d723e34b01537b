// The container's health check: exits 0 when the sandbox in this container answers GET /readyz with 200 on
// the given port of 127.0.0.1 (default 8445, the directory origin: no client certificate needed), else 1.
// The server certificate must chain to the CA bundle of the data directory (OB_CONSOLE_SANDBOX_DIR, or the
// second argument); its name is not checked, since the certificate names the public host, not 127.0.0.1.
// Plain Node: node:24-slim has no curl.
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { join } from 'node:path'

const port = Number(process.argv[2] ?? 8445)
const dataDir = process.argv[3] ?? process.env.OB_CONSOLE_SANDBOX_DIR ?? '/data'
let ca
try {
  ca = readFileSync(join(dataDir, 'pki', 'ca-bundle.pem'))
} catch {
  process.exit(1)
}
const req = request(
  { host: '127.0.0.1', port, path: '/readyz', ca, checkServerIdentity: () => undefined, timeout: 4000 },
  (res) => {
    res.resume()
    process.exit(res.statusCode === 200 ? 0 : 1)
  },
)
req.on('timeout', () => req.destroy(new Error('timeout')))
req.on('error', () => process.exit(1))
req.end()
