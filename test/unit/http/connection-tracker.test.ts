import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate, issueCertificate } from '../../../src-main/certificates/generate.ts'
import { ConnectionTracker } from '../../../src-main/http/connection-tracker.ts'

let server: Server
let url: string
let caPem: string

beforeAll(async () => {
  const ca = await createSelfSignedCertificate({ subject: 'CN=CA', ca: { pathLength: 0 }, keyType: 'EC-P256' })
  const leaf = await issueCertificate(ca, { subject: 'CN=localhost', subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }], keyType: 'EC-P256' })
  caPem = ca.certPem
  server = createServer({ key: leaf.keyPem, cert: leaf.certPem, requestCert: true, rejectUnauthorized: false }, (_req, res) => res.end('ok'))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()) }))

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
})
