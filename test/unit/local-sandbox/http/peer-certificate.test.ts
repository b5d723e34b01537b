import { X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { peerCertificate } from '../../../../src-main/local-sandbox/http/peer-certificate.ts'
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
