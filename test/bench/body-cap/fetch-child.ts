// P9's console process: the console's HTTP engine (mutual TLS, exchange log, the flows' decoding) fetching
// one body from the local sandbox. Measures its own resident memory: idle once warmed up, then sampled
// every 2 ms while the body comes in. Prints one JSON line.
import { readFileSync } from 'node:fs'
import { systemClock } from '../../../src-main/core/clock.ts'
import { DEFAULT_API_PATHS } from '../../../src-main/services/environments-service.ts'
import { createHttpEngine } from '../../../src-main/services/http-engine.ts'

interface Args {
  baseUrl: string
  authUrl: string
  caBundlePath: string
  certPem: string
  keyPem: string
  path: string
  maxBodyBytes?: number
}

const args = JSON.parse(readFileSync(0, 'utf8')) as Args
const engine = createHttpEngine({
  clock: systemClock(),
  ...(args.maxBodyBytes ? { maxBodyBytes: args.maxBodyBytes } : {}),
})
const env = {
  id: 'local-sandbox',
  name: 'Local sandbox',
  kind: 'local-sandbox' as const,
  baseUrl: args.baseUrl,
  authUrl: args.authUrl,
  apiPaths: DEFAULT_API_PATHS,
  appScheme: 'bankapp',
  tlsVerification: 'exact-ca' as const,
  caBundlePem: readFileSync(args.caBundlePath, 'utf8'),
  allowedAuthMethods: ['private_key_jwt' as const],
  builtIn: true,
}
const http = engine.forIdentity(env, { certPem: args.certPem, keyPem: args.keyPem }, {})
const gc = (globalThis as { gc?: () => void }).gc

// Warm up: the connection, the TLS session, the code paths of a request and of the log.
for (let i = 0; i < 20; i++)
  await http.send({ method: 'GET', url: `${args.authUrl}/.well-known/openid-configuration`, label: 'warm-up' })
await engine.exchanges.idle()
gc?.()
await new Promise((r) => setTimeout(r, 300))
let idle = 0
for (let i = 0; i < 10; i++) {
  idle = Math.max(idle, process.memoryUsage().rss)
  await new Promise((r) => setTimeout(r, 20))
}

let peak = process.memoryUsage().rss
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss)
}, 2)
const t0 = performance.now()
let code = 'none'
let status: number | undefined
try {
  const res = await http.send({ method: 'GET', url: `${args.baseUrl}${args.path}`, label: 'P9 body' })
  status = res.status
} catch (err) {
  code = (err as { code?: string }).code ?? 'unknown'
}
const ms = performance.now() - t0
await engine.exchanges.idle()
peak = Math.max(peak, process.memoryUsage().rss)
clearInterval(sampler)
process.stdout.write(JSON.stringify({ idleRss: idle, peakRss: peak, code, status, ms }) + '\n')
await engine.close()
