import { createServer, type Server } from 'node:https'
import { createServer as createTcpServer, type AddressInfo } from 'node:net'
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
/** TLS connections each server accepted. */
const accepted = new Map<Server, number>()
const count = (s: Server) => {
  accepted.set(s, 0)
  s.on('secureConnection', () => accepted.set(s, accepted.get(s)! + 1))
}

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
  count(server)
  other = createServer({ key: leaf.keyPem, cert: leaf.certPem }, (_req, res) => res.end('ok'))
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r))
  otherUrl = `https://127.0.0.1:${(other.address() as AddressInfo).port}`
  count(other)
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

  describe('a connection opened ahead (preconnect)', () => {
    const idle = () => new Promise((r) => setTimeout(r, 0))

    it("is the one the next request to its origin takes: one handshake, its facts that request's", async () => {
      const tracker = new ConnectionTracker({ ca: caPem })
      const agent = new Agent({ connect: tracker.connect, connections: 1 })
      const before = accepted.get(server)!
      try {
        tracker.preconnect(new URL(`${url}/later`))
        tracker.preconnect(new URL(`${url}/again`)) // one is being opened already: nothing more
        await new Promise<void>((r) => server.once('secureConnection', () => r()))
        expect(tracker.take()).toEqual([]) // no request has taken it yet
        const sent = performance.now()
        await (await request(`${url}/a`, { dispatcher: agent })).body.text()
        const [info, ...rest] = tracker.take()
        expect(rest).toEqual([])
        expect(info!.startedAt).toBeLessThan(sent)
        expect(info!.clientCertRequested).toBe(true)
        expect(info!.serverCertificate?.subjectDn).toBe('CN=localhost')
        expect(accepted.get(server)! - before).toBe(1)
        // The origin has its connection now: another preconnect opens none, and the next request reuses it.
        tracker.preconnect(new URL(`${url}/b`))
        await (await request(`${url}/b`, { dispatcher: agent })).body.text()
        expect(tracker.take()).toEqual([])
        expect(accepted.get(server)! - before).toBe(1)
      } finally {
        await agent.close()
      }
    })

    it('taken by a request sent at once, its handshake still under way: one connection all the same', async () => {
      const tracker = new ConnectionTracker({ ca: caPem })
      const agent = new Agent({ connect: tracker.connect, connections: 1 })
      const before = accepted.get(other)!
      try {
        tracker.preconnect(new URL(otherUrl))
        // Sent at once, before the server has seen the handshake end.
        await (await request(`${otherUrl}/a`, { dispatcher: agent })).body.text()
        expect(tracker.take()).toHaveLength(1)
        expect(accepted.get(other)! - before).toBe(1)
      } finally {
        await agent.close()
      }
    })

    it('that failed is not handed on: the request opens its own and reports its own failure', async () => {
      const refusing = createTcpServer((socket) => socket.destroy())
      await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r))
      const refusingUrl = `https://127.0.0.1:${(refusing.address() as AddressInfo).port}`
      let connections = 0
      refusing.on('connection', () => connections++)
      const tracker = new ConnectionTracker({ ca: caPem })
      const agent = new Agent({ connect: tracker.connect, connections: 1 })
      try {
        tracker.preconnect(new URL(refusingUrl))
        while (connections < 1) await idle()
        await new Promise((r) => setTimeout(r, 20)) // the refusal has reached the client
        await expect(request(`${refusingUrl}/a`, { dispatcher: agent })).rejects.toThrow()
        expect(connections).toBe(2)
        const [info] = tracker.take()
        expect(info!.error).toBeDefined()
      } finally {
        await agent.close()
        await new Promise((r) => refusing.close(r))
      }
    })

    it('unused, is closed after its idle time, and by close()', async () => {
      const tracker = new ConnectionTracker({ ca: caPem }, 30)
      const closed = () =>
        new Promise<void>((r) => server.once('secureConnection', (socket) => socket.once('close', () => r())))
      let ended = closed()
      tracker.preconnect(new URL(url))
      await ended // closed by the tracker after 30 ms, no request having come
      const closer = new ConnectionTracker({ ca: caPem })
      ended = closed()
      closer.preconnect(new URL(url))
      await new Promise((r) => setTimeout(r, 20))
      closer.close()
      await ended
    })

    it('closed by the server before its request came is not taken: the request opens another', async () => {
      const tracker = new ConnectionTracker({ ca: caPem })
      const agent = new Agent({ connect: tracker.connect, connections: 1 })
      const before = accepted.get(other)!
      try {
        const gone = new Promise<void>((r) =>
          other.once('secureConnection', (socket) => {
            socket.once('close', () => r())
            socket.destroy()
          }),
        )
        tracker.preconnect(new URL(otherUrl))
        await gone
        await new Promise((r) => setTimeout(r, 20)) // the close has reached the client
        await (await request(`${otherUrl}/a`, { dispatcher: agent })).body.text()
        const opened = tracker.take()
        expect(opened).toHaveLength(1)
        expect(opened[0]!.error).toBeUndefined()
        expect(accepted.get(other)! - before).toBe(2)
      } finally {
        await agent.close()
      }
    })
  })
})
