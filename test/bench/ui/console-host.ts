/**
 * A console web host for P5 and P6, run as a child process of the bench (`node --expose-gc --import tsx
 * console-host.ts <mode> <rendererDir>`): what `ob-console serve --no-sandbox` runs (the console
 * runtime and the web host serving the built renderer), plus a plain HTTP "bank" on 127.0.0.1 whose
 * answers the console's HTTP engine fetches, so that its exchange log holds what the benchmark needs:
 *
 *  - `p5`: one 10 MB JSON response (and a small one, to load the editor first);
 *  - `p6`: 10,000 exchanges in the mix of the P1 journey (of every 36 calls, 17 transactions pages of
 *    80-95 KB made by the local sandbox's own generator, and 19 small JSON answers with random tokens),
 *    with the main side's memory measured (after a full GC) right after recording and again once the
 *    exchange log's compression is idle, against a plain array of the same bytes, and the main side's
 *    filter time (`exchanges.list` with a path filter) against a plain `Array.filter` over the same
 *    summaries.
 *
 * Prints one JSON line on stdout (the URL with its token, the figures), then serves until SIGTERM.
 */
import { createServer } from 'node:https'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import type { AddressInfo } from 'node:net'
import { createConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import { startWebHost } from '../../../src-main/web-host/web-host.ts'
import { median } from '../lib/stats.ts'
import { bigBody, sandboxPages, smallBody } from './bank-data.ts'

const [mode, rendererDir] = process.argv.slice(2)
if ((mode !== 'p5' && mode !== 'p6') || !rendererDir) {
  process.stderr.write('usage: console-host.ts p5|p6 <rendererDir>\n')
  process.exit(2)
}

const BIG = bigBody()
const PAGES = mode === 'p6' ? sandboxPages() : []
/** The body of request `n` of P6 (`?n=` in its URL): a sandbox page, or a small answer of its own. */
const p6Body = (n: number, transactions: boolean) => (transactions ? PAGES[n % PAGES.length]! : smallBody(n))

// HTTPS (an environment's {base_url} is https), a throwaway certificate: the environment does not verify it.
const bankTls = await createSelfSignedCertificate({
  subject: 'CN=bench-bank',
  subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }],
})
const bank = createServer({ key: bankTls.keyPem, cert: bankTls.certPem }, (req, res) => {
  const n = Number(/[?&]n=(\d+)/.exec(req.url ?? '')?.[1] ?? 0)
  const body = req.url?.includes('big=1') ? BIG : p6Body(n, req.url?.includes('/transactions') ?? false)
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'x-fapi-interaction-id': '93bac548-d2de-4546-b106-880a5018460d',
  })
  res.end(body)
})
await new Promise<void>((r) => bank.listen(0, '127.0.0.1', r))
const bankOrigin = `https://127.0.0.1:${(bank.address() as AddressInfo).port}`

const rt = await createConsoleRuntime({ host: 'web', dataDir: 'fresh', loopbackPort: 0, log: () => undefined })
const env = rt.services.environments.save({
  // The bank's own origin as {base_url}: every answer goes through the bank-conformance lens, as a real bank's would.
  name: 'Bench bank',
  kind: 'bank-sandbox',
  baseUrl: bankOrigin,
  authUrl: bankOrigin,
  apiPaths: {
    registration: '/dynamic-client-registration/v3.2/register',
    ais: '/open-banking/v4.0/aisp',
    pis: '/open-banking/v4.0/pisp',
  },
  appScheme: 'bankapp',
  tlsVerification: 'off',
  allowedAuthMethods: ['private_key_jwt'],
})
const http = rt.services.http.forIdentity(env, undefined, {})
const get = (path: string, label: string) =>
  http.send({
    method: 'GET',
    url: `${bankOrigin}${path}`,
    headers: {
      authorization: 'Bearer eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.c2ln',
      accept: 'application/json',
      'x-fapi-interaction-id': '93bac548-d2de-4546-b106-880a5018460d',
    },
    label,
    clientCertificate: false,
  })

const gc = (globalThis as { gc?: () => void }).gc
const settle = () => {
  for (let i = 0; i < 3; i++) gc?.()
  const m = process.memoryUsage()
  return { heapUsed: m.heapUsed, external: m.external, rss: m.rss }
}
const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)
let figures: Record<string, unknown> = {}

if (mode === 'p5') {
  await get('/open-banking/v4.0/aisp/accounts/acc-amelia-current/balances', 'small answer')
  await get('/open-banking/v4.0/aisp/accounts/acc-big/transactions?big=1', 'bench 10 MB')
  figures = { bigBytes: BIG.length }
} else {
  const N = 10_000
  const before = settle()
  const t0 = performance.now()
  let bodyBytes = 0
  for (let i = 0; i < N; i++) {
    const inJourney = i % 36
    const res =
      inJourney < 17
        ? await get(
            `/open-banking/v4.0/aisp/accounts/acc-amelia-current/transactions?page=${inJourney + 1}&n=${i}`,
            `transactions p${inJourney + 1}`,
          )
        : await get(`/open-banking/v4.0/aisp/accounts/acc-amelia-current/balances?n=${i}`, 'balances')
    bodyBytes += Buffer.byteLength(res.text)
  }
  const recordMs = performance.now() - t0
  // Right after the last exchange (a compression batch may be running) and once the log is idle.
  const afterRecord = settle()
  const statsAfterRecord = rt.services.http.exchanges.bodyStats()
  const t1 = performance.now()
  await rt.services.http.exchanges.idle()
  const idleMs = performance.now() - t1
  const after = settle()
  const stats = rt.services.http.exchanges.bodyStats()
  const list = rt.handlers['exchanges.list'] as (
    input: unknown,
  ) => Promise<{ ok: boolean; value?: { total: number; items: Array<{ path: string }> } }>
  const filterMs: number[] = []
  let hits = 0
  for (let i = 0; i < 21; i++) {
    const s = performance.now()
    const r = await list({ pathContains: '/transactions', limit: 500 })
    filterMs.push(performance.now() - s)
    hits = r.value?.total ?? 0
  }
  const all = (await list({ limit: 5000, offset: 0 })).value!
  // The floor: the same bytes in a plain array, and a plain filter over plain summaries.
  const plain: Array<{ url: string; headers: Array<[string, string]>; body: Buffer }> = []
  const plainBefore = settle()
  for (let i = 0; i < N; i++) {
    const inJourney = i % 36
    plain.push({
      url: `${bankOrigin}/open-banking/v4.0/aisp/accounts/acc-amelia-current/${inJourney < 17 ? 'transactions' : 'balances'}`,
      headers: [
        ['content-type', 'application/json'],
        ['x-fapi-interaction-id', `93bac548-d2de-4546-b106-${i}`],
      ],
      body: Buffer.from(p6Body(i, inJourney < 17)),
    })
  }
  const plainAfter = settle()
  const summaries = Array.from({ length: N }, (_, i) => ({
    path: `/open-banking/v4.0/aisp/accounts/acc-amelia-current/${i % 36 < 17 ? 'transactions' : 'balances'}`,
  }))
  const plainFilterMs: number[] = []
  for (let i = 0; i < 21; i++) {
    const s = performance.now()
    summaries.filter((x) => x.path.toLowerCase().includes('/transactions')).slice(0, 500)
    plainFilterMs.push(performance.now() - s)
  }
  figures = {
    exchanges: N,
    listed: all.total,
    transactionsHits: hits,
    recordMs: Math.round(recordMs),
    mainHeapMb: mb(after.heapUsed - before.heapUsed),
    mainExternalMb: mb(after.external - before.external),
    mainRssMb: mb(after.rss - before.rss),
    mainRssTotalMb: mb(after.rss),
    recordedHeapMb: mb(afterRecord.heapUsed - before.heapUsed),
    recordedExternalMb: mb(afterRecord.external - before.external),
    idleMs: Math.round(idleMs),
    bodies: { afterRecord: statsAfterRecord, idle: stats },
    distinctPages: PAGES.length,
    pageKb: Math.round(PAGES.reduce((n, p) => n + p.length, 0) / PAGES.length / 1024),
    plainHeapMb: mb(plainAfter.heapUsed - plainBefore.heapUsed),
    plainExternalMb: mb(plainAfter.external - plainBefore.external),
    bodyBytesMb: mb(bodyBytes),
    filterMs: +median(filterMs).toFixed(2),
    plainFilterMs: +median(plainFilterMs).toFixed(3),
    gcExposed: Boolean(gc),
  }
  plain.length = 0
}

const host = await startWebHost({
  ...rt.webHost,
  rendererDir,
  port: 0,
})
process.stdout.write(JSON.stringify({ url: host.url, ...figures }) + '\n')
await new Promise<void>((r) => {
  process.once('SIGTERM', () => r())
  process.once('SIGINT', () => r())
})
await host.stop()
await rt.stop()
bank.close()
