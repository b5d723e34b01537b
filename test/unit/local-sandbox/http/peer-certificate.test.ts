import { X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { EventEmitter } from 'node:events'
import type { Server as TlsServer } from 'node:tls'
import {
  applyTransportTrust,
  certificateIdentity,
  peerCertificate,
  settlePeerCertificate,
  type PeerCertificate,
} from '../../../../src-main/local-sandbox/http/peer-certificate.ts'
import { certToPem, createRootCa } from '../../../../src-main/local-sandbox/pki/certificate-factory.ts'
import { loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'

/** A stand-in TLS socket that counts how often its certificate is read. */
function fakeSocket(der: Buffer | undefined, authorized = true) {
  const socket = {
    reads: 0,
    authorized,
    authorizationError: authorized ? undefined : 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    getPeerCertificate() {
      socket.reads++
      return der ? { raw: der, subject: { CN: 'sw1', OU: 'org1', O: 'TPP' } } : {}
    },
  }
  return socket
}

describe('peerCertificate: read once per TLS connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-peer-cert-'))
  let der: Buffer
  beforeAll(async () => {
    const pki = await loadOrCreatePki(dataDirLayout(dir))
    der = new X509Certificate(
      (await pki.issueTransportCertificate({ orgId: 'org1', orgName: 'TPP', softwareId: 'sw1' })).certPem,
    ).raw
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reads the certificate of a connection once and answers its later requests from that reading', () => {
    const socket = fakeSocket(der)
    const first = peerCertificate({ socket })!
    const second = peerCertificate({ socket })!
    expect(socket.reads).toBe(1)
    expect(second).toBe(first)
    expect(first).toMatchObject({
      trusted: true,
      trustedAs: 'ca-issued',
      selfSigned: false,
      subjectDn: 'CN=sw1,OU=org1,O=TPP',
      certificateSubjectDn: 'CN=sw1,OU=org1,O=TPP,C=GB',
      orgId: 'org1',
      softwareId: 'sw1',
    })
    expect(first.spkiSha256).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(first.pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/)
    expect(new X509Certificate(first.pem).raw.equals(der)).toBe(true)
    expect(Object.isFrozen(first)).toBe(true)
  })

  it('keeps connections apart, remembers "no certificate" too, and carries the untrusted reason', () => {
    const none = fakeSocket(undefined)
    expect(peerCertificate({ socket: none })).toBeUndefined()
    expect(peerCertificate({ socket: none })).toBeUndefined()
    expect(none.reads).toBe(1)
    const untrusted = peerCertificate({ socket: fakeSocket(der, false) })!
    expect(untrusted.trusted).toBe(false)
    expect(untrusted.untrustedReason).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
    expect(peerCertificate({ socket: {} })).toBeUndefined()
  })
})

describe('a self-signed certificate: matched to the directory once per connection, before its requests read it', () => {
  let selfSignedDer: Buffer
  beforeAll(async () => {
    const own = await createRootCa({ name: [{ CN: ['sw1'] }], validDays: 30, pathLength: 0, now: new Date() })
    selfSignedDer = new X509Certificate(certToPem(own.cert)).raw
  })

  /** A connection of a server whose trust is `match` (what the directory answers, when it answers). */
  function connection(match: (peer: PeerCertificate) => Promise<string | undefined>) {
    const server = new EventEmitter()
    const judged: Array<PeerCertificate | undefined> = []
    applyTransportTrust(
      server as unknown as TlsServer,
      { mode: 'self-signed-allowed', selfSignedProblem: match },
      (_s, p) => judged.push(p),
    )
    const socket = fakeSocket(selfSignedDer, false)
    server.emit('secureConnection', socket)
    return { socket, judged }
  }

  it('waits for the asynchronous match, then accepts the certificate as self-signed for every request', async () => {
    let answer!: (problem: string | undefined) => void
    const { socket, judged } = connection(() => new Promise((r) => (answer = r)))
    const early = peerCertificate({ socket })!
    expect(early.trusted).toBe(false)
    expect(early.untrustedReason).toMatch(/not decided before this request was read/)
    const settling = settlePeerCertificate(socket as never)
    expect(settling).toBeInstanceOf(Promise)
    answer(undefined)
    await settling
    const peer = peerCertificate({ socket })!
    expect(peer).toMatchObject({ trusted: true, trustedAs: 'self-signed', selfSigned: true, softwareId: 'sw1' })
    expect(peerCertificate({ socket })).toBe(peer)
    expect(settlePeerCertificate(socket as never)).toBeUndefined()
    expect(judged).toEqual([]) // the handshake hook is not called for an accepted certificate
  })

  it('refuses with the reason the directory gives, or says the directory could not be read', async () => {
    const refused = connection(async () => 'its CN "sw1" is no software statement of this sandbox\'s directory')
    await settlePeerCertificate(refused.socket as never)
    expect(peerCertificate({ socket: refused.socket })!.untrustedReason).toBe(
      'it is self-signed, and its CN "sw1" is no software statement of this sandbox\'s directory',
    )
    expect(refused.judged).toHaveLength(1)
    const failing = connection(async () => Promise.reject(new Error('connection refused')))
    await settlePeerCertificate(failing.socket as never)
    const peer = peerCertificate({ socket: failing.socket })!
    expect(peer.trusted).toBe(false)
    expect(peer.untrustedReason).toMatch(/could not be read to match it .*\(connection refused\); try again$/)
  })
})

describe('a certificate identity', () => {
  it('writes the subject as RFC 4514 does, escaping a comma in a value, as the console registers it', async () => {
    const ca = await createRootCa({
      name: [{ C: ['GB'] }, { O: ['Acme, Ltd'] }, { OU: ['0015800001041RHAAY'] }, { CN: ['soft+1'] }],
      validDays: 1,
      pathLength: 0,
      now: new Date(),
    })
    expect(certificateIdentity(certToPem(ca.cert)).subjectDn).toBe(
      'CN=soft\\+1,OU=0015800001041RHAAY,O=Acme\\, Ltd,C=GB',
    )
  })
})
