import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_TIMEOUTS, openChannel, type Channel } from '../../../src-main/http/client-channel.ts'
import type { ServerTrust } from '../../../src-main/http/environment.ts'
import { createTestPki, startHttpsServer, type RunningServer, type TestPki } from './tls-fixture.ts'

// The channel alone (one undici Agent and its TLS options), against real TLS servers on 127.0.0.1.
/** The PKI and servers of this file: one of the environment's CA asking for a client certificate, one of a foreign CA. */
let world: { pki: TestPki; server: RunningServer; foreign: RunningServer }
const channels: Channel[] = []

beforeAll(async () => {
  const pki = await createTestPki()
  world = {
    pki,
    server: await startHttpsServer({
      key: pki.server.keyPem,
      cert: pki.server.certPem,
      requestCert: true,
      rejectUnauthorized: false,
    }),
    foreign: await startHttpsServer({ key: pki.foreignServer.keyPem, cert: pki.foreignServer.certPem }),
  }
})
afterAll(async () => {
  await Promise.all(channels.map((c) => c.agent.close()))
  await Promise.all([world?.server, world?.foreign].map((s) => s?.close()))
})

function open(trust: ServerTrust, withIdentity = false): Channel {
  const identity = withIdentity
    ? { id: 'i', certPem: world.pki.client.certPem, keyPem: world.pki.client.keyPem }
    : undefined
  const channel = openChannel(trust, identity, DEFAULT_TIMEOUTS)
  channels.push(channel)
  return channel
}

async function get(channel: Channel, to: RunningServer): Promise<number> {
  const res = await channel.agent.request({ origin: to.url, path: '/x', method: 'GET' })
  await res.body.text()
  return res.statusCode
}

describe('client-channel', () => {
  it('trusts the exact CA bundle, presents no certificate without an identity, and tracks the connection', async () => {
    const channel = open({ mode: 'ca-bundle', caPem: world.pki.ca.certPem })
    expect(await get(channel, world.server)).toBe(200)
    expect(world.server.clientCertificates.at(-1)).toBe('')
    const [conn] = channel.tracker.take()
    expect(conn).toMatchObject({ origin: world.server.url, protocol: expect.stringMatching(/^TLSv1\.[23]$/) })
    expect(channel.tracker.last(world.server.url)).toBe(conn)
    // Keep-alive: the next request reuses the connection.
    expect(await get(channel, world.server)).toBe(200)
    expect(channel.tracker.take()).toEqual([])
  })

  it('presents the transport certificate when given an identity', async () => {
    expect(await get(open({ mode: 'ca-bundle', caPem: world.pki.ca.certPem }, true), world.server)).toBe(200)
    expect(world.server.clientCertificates.at(-1)).toBe('SoftwareId123')
  })

  it('refuses a server of another CA unless verification is off; system trust takes an extra CA', async () => {
    await expect(get(open({ mode: 'ca-bundle', caPem: world.pki.ca.certPem }), world.foreign)).rejects.toThrow()
    expect(await get(open({ mode: 'off' }), world.foreign)).toBe(200)
    expect(await get(open({ mode: 'system', extraCaPem: world.pki.ca.certPem }), world.server)).toBe(200)
    await expect(get(open({ mode: 'system' }), world.server)).rejects.toThrow()
  })

  it('opens a channel over material Node refuses, so the refusal comes at connect time', async () => {
    const channel = open({ mode: 'ca-bundle', caPem: 'not a certificate' })
    await expect(get(channel, world.server)).rejects.toThrow()
    expect(channel.tracker.take()).toHaveLength(1)
  })
})
