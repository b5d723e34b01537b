import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'
import type { EcosystemPki } from '../../../../src-main/local-sandbox/pki/types.ts'

// The PKI over real TLS: the servers' certificate is trusted through the CA bundle, and a transport
// certificate validates (full chain) at a server that asks for client certificates.
describe('the PKI over mutual TLS', () => {
  const roots: string[] = []
  let pki: EcosystemPki
  let foreign: EcosystemPki
  let server: Server
  let url: string
  const agents: Agent[] = []

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) roots.push(mkdtempSync(join(tmpdir(), 'ob-mtls-test-')))
    pki = await loadOrCreatePki(dataDirLayout(roots[0]!))
    foreign = await loadOrCreatePki(dataDirLayout(roots[1]!))
    server = createServer(
      {
        key: pki.serverTls.keyPem,
        cert: pki.serverTls.certPem,
        ca: pki.caBundlePem,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        const socket = req.socket as TLSSocket
        const peer = socket.getPeerCertificate()
        res.setHeader('content-type', 'application/json')
        res.end(
          JSON.stringify({
            authorized: socket.authorized,
            error: socket.authorizationError ?? null,
            cn: peer?.subject?.CN ?? null,
            ou: peer?.subject?.OU ?? null,
          }),
        )
      },
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })

  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()))
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    for (const r of roots) rmSync(r, { recursive: true, force: true })
  })

  function agent(connect: { ca: string; cert?: string; key?: string }): Agent {
    const a = new Agent({ connect, connections: 1 })
    agents.push(a)
    return a
  }

  it('the client trusts the server through the CA bundle, and the server validates the transport certificate chain', async () => {
    const transport = await pki.issueTransportCertificate({
      orgId: '0015800001TESTORG1',
      orgName: 'Test Org',
      softwareId: 'SoftwareIdForMtlsTest1',
    })
    const res = await request(url, {
      dispatcher: agent({ ca: pki.caBundlePem, cert: transport.certPem, key: transport.keyPem }),
    })
    expect(res.statusCode).toBe(200)
    expect(await res.body.json()).toEqual({
      authorized: true,
      error: null,
      cn: 'SoftwareIdForMtlsTest1',
      ou: '0015800001TESTORG1',
    })
  })

  it('a transport certificate of another sandbox (another CA) is not authorised', async () => {
    const transport = await foreign.issueTransportCertificate({ orgId: 'ORG2', orgName: 'Other', softwareId: 'other' })
    const res = await request(url, {
      dispatcher: agent({ ca: pki.caBundlePem, cert: transport.certPem, key: transport.keyPem }),
    })
    const body = (await res.body.json()) as { authorized: boolean; error: string }
    expect(body.authorized).toBe(false)
    expect(body.error).toMatch(/UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE/)
  })

  it('a client that does not trust the CA bundle refuses the server certificate', async () => {
    const err = await request(url, { dispatcher: agent({ ca: foreign.caBundlePem }) }).catch(
      (e: Error & { code?: string }) => e,
    )
    expect(err).toBeInstanceOf(Error)
    expect(String((err as Error & { code?: string }).code)).toMatch(
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED/,
    )
  })
})
