import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate, issueCertificate } from '../../../src-main/certificates/generate.ts'
import { ConnectionTracker } from '../../../src-main/http/connection-tracker.ts'

let server: Server
let url: string
let caPem: string
/** A second server on the same host, another port, with its own session tickets. */
let other: Server
let otherUrl: string

beforeAll(async () => {
  const ca = await createSelfSignedCertificate({ subject: 'CN=CA', ca: { pathLength: 0 }, keyType: 'EC-P256' })
  const leaf = await issueCertificate(ca, {
    subject: 'CN=localhost',
    subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }],
    keyType: 'EC-P256',
  })
  caPem = ca.certPem
  server = createServer(
    { key: leaf.keyPem, cert: leaf.certPem, requestCert: true, rejectUnauthorized: false },
    (_req, res) => res.end('ok'),
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  other = createServer({ key: leaf.keyPem, cert: leaf.certPem }, (_req, res) => res.end('ok'))
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
  otherUrl = `https://127.0.0.1:${(other.address() as AddressInfo).port}`
})
afterAll(() =>
  Promise.all(
    [server, other].map(
      (s) =>
        new Promise<void>((r) => {
          s.closeAllConnections()
          s.close(() => r())
        }),
    ),
  ),
)

describe('ConnectionTracker', () => {
  it('records phase times, TLS facts and the server asking for a certificate, once per connection', async () => {
    const tracker = new ConnectionTracker({ ca: caPem })
    const agent = new Agent({ connect: tracker.connect, connections: 1 })
    try {
      await (await request(`${url}/a`, { dispatcher: agent })).body.text()
      const [info, ...rest] = tracker.take()
      expect(rest).toEqual([])
      expect(info!.origin).toBe(url)
      expect(info!.tcpAt).toBeGreaterThanOrEqual(info!.startedAt)
      expect(info!.tlsAt).toBeGreaterThanOrEqual(info!.tcpAt!)
      expect(info!.clientCertRequested).toBe(true)
      expect(info!.protocol).toBe('TLSv1.3')
      expect(info!.serverCertificate?.subjectDn).toBe('CN=localhost')
      expect(info!.serverCertificate?.sha256Hex).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
      await (await request(`${url}/b`, { dispatcher: agent })).body.text()
      expect(tracker.take()).toEqual([])
      expect(tracker.last(url)).toBe(info)
    } finally {
      await agent.close()
    }
  })

  it('records what verification would have said when it is off', async () => {
    const tracker = new ConnectionTracker({ rejectUnauthorized: false })
    const agent = new Agent({ connect: tracker.connect })
    try {
      await (await request(`${url}/a`, { dispatcher: agent })).body.text()
      expect(tracker.take()[0]!.unverifiedReason).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER/)
    } finally {
      await agent.close()
    }
  })

  it("resumes a TLS session per origin: two origins on one host do not take each other's sessions", async () => {
    const tracker = new ConnectionTracker({ ca: caPem })
    // No keep-alive: every request opens a connection.
    const agent = new Agent({ connect: tracker.connect, pipelining: 0 })
    const get = async (u: string) => {
      await (await request(u, { dispatcher: agent, reset: true })).body.text()
      const opened = tracker.take()
      expect(opened).toHaveLength(1)
      return opened[0]!
    }
    try {
      expect((await get(`${url}/1`)).sessionResumed).toBe(false)
      expect((await get(`${otherUrl}/1`)).sessionResumed).toBe(false)
      // Each origin resumes its own session, although the other origin on the host connected in between.
      expect((await get(`${url}/2`)).sessionResumed).toBe(true)
      expect((await get(`${otherUrl}/2`)).sessionResumed).toBe(true)
    } finally {
      await agent.close()
    }
  })
})
