import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dataDirLayout, type DataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { PKI_FILES, loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1'
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2'
const DAY = 24 * 60 * 60 * 1000

const roots: string[] = []
function freshLayout(): DataDirLayout {
  const root = mkdtempSync(join(tmpdir(), 'ob-pki-test-'))
  roots.push(root)
  return dataDirLayout(root)
}
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

function splitPems(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g) ?? []
}

describe('loadOrCreatePki', () => {
  const layout = freshLayout()

  it('creates a root CA, an issuing CA signed by it, the CA bundle and a server certificate; keys are mode 0600', async () => {
    const pki = await loadOrCreatePki(layout)
    const root = new X509Certificate(pki.rootCaPem)
    const issuing = new X509Certificate(pki.issuingCaPem)
    expect(root.ca).toBe(true)
    expect(issuing.ca).toBe(true)
    expect(root.checkIssued(root)).toBe(true)
    expect(root.verify(root.publicKey)).toBe(true)
    expect(issuing.checkIssued(root)).toBe(true)
    expect(issuing.verify(root.publicKey)).toBe(true)
    expect(root.subject).toContain('CN=OB Console Local Sandbox Root CA')
    expect(issuing.subject).toContain('CN=OB Console Local Sandbox Issuing CA')
    expect(splitPems(pki.caBundlePem)).toEqual([pki.rootCaPem, pki.issuingCaPem])
    expect(pki.caBundlePath).toBe(join(layout.pki, 'ca-bundle.pem'))
    expect(readFileSync(pki.caBundlePath, 'utf8')).toBe(pki.caBundlePem)
    for (const key of [PKI_FILES.rootKey, PKI_FILES.issuingKey, PKI_FILES.serverKey]) {
      expect(statSync(join(layout.pki, key)).mode & 0o777, key).toBe(0o600)
    }
  })

  it('reuses the same CAs and server certificate on a later start (identical PEMs)', async () => {
    const first = await loadOrCreatePki(layout)
    const second = await loadOrCreatePki(layout)
    expect(second.rootCaPem).toBe(first.rootCaPem)
    expect(second.issuingCaPem).toBe(first.issuingCaPem)
    expect(second.serverTls).toEqual(first.serverTls)
  })

  it('issues the server certificate from the issuing CA with SANs 127.0.0.1, ::1 and localhost and the serverAuth EKU', async () => {
    const pki = await loadOrCreatePki(layout)
    const server = new X509Certificate(pki.serverTls.certPem)
    const issuing = new X509Certificate(pki.issuingCaPem)
    expect(server.ca).toBe(false)
    expect(server.checkIssued(issuing) && server.verify(issuing.publicKey)).toBe(true)
    expect(server.checkPrivateKey(createPrivateKey(pki.serverTls.keyPem))).toBe(true)
    expect(server.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost')
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(server.checkHost('localhost')).toBe('localhost')
    expect(server.keyUsage).toEqual([SERVER_AUTH])
  })

  it('re-issues the server certificate when it expires within 30 days, and keeps it otherwise', async () => {
    const own = freshLayout()
    const shortLived = await loadOrCreatePki(own, { serverValidityDays: 20 })
    const renewed = await loadOrCreatePki(own)
    expect(renewed.serverTls.certPem).not.toBe(shortLived.serverTls.certPem)
    expect(renewed.rootCaPem).toBe(shortLived.rootCaPem)
    const notAfter = new Date(new X509Certificate(renewed.serverTls.certPem).validTo).getTime()
    expect(notAfter - Date.now()).toBeGreaterThan(300 * DAY)

    const stillFine = await loadOrCreatePki(own, { now: () => new Date(notAfter - 31 * DAY) })
    expect(stillFine.serverTls.certPem).toBe(renewed.serverTls.certPem)
    const nearExpiry = await loadOrCreatePki(own, { now: () => new Date(notAfter - 29 * DAY) })
    expect(nearExpiry.serverTls.certPem).not.toBe(renewed.serverTls.certPem)
  })

  it('re-issues the server certificate when its file is missing or its key does not match', async () => {
    const own = freshLayout()
    const first = await loadOrCreatePki(own)
    rmSync(join(own.pki, PKI_FILES.serverCert))
    const second = await loadOrCreatePki(own)
    expect(second.serverTls.certPem).not.toBe(first.serverTls.certPem)
    const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string
    writeFileSync(join(own.pki, PKI_FILES.serverKey), foreignKey)
    const third = await loadOrCreatePki(own)
    expect(third.serverTls.keyPem).not.toBe(foreignKey)
    expect(new X509Certificate(third.serverTls.certPem).checkPrivateKey(createPrivateKey(third.serverTls.keyPem))).toBe(
      true,
    )
  })

  it('refuses a PKI whose issuing CA key does not match its certificate, naming the file and the fix', async () => {
    const own = freshLayout()
    await loadOrCreatePki(own)
    writeFileSync(
      join(own.pki, PKI_FILES.issuingKey),
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    )
    await expect(loadOrCreatePki(own)).rejects.toThrow(
      /issuing-ca\.key is not the key of issuing-ca\.pem.*delete that directory/,
    )
  })

  it('refuses an issuing CA without its root rather than silently making a new root', async () => {
    const own = freshLayout()
    await loadOrCreatePki(own)
    rmSync(join(own.pki, PKI_FILES.rootCert))
    rmSync(join(own.pki, PKI_FILES.rootKey))
    await expect(loadOrCreatePki(own)).rejects.toThrow(
      /issuing-ca\.pem exists but its root \(root-ca\.pem\) is missing/,
    )
  })

  it('makes one PKI when two processes start on a fresh data directory at the same time', async () => {
    const own = freshLayout()
    const [a, b] = await Promise.all([loadOrCreatePki(own), loadOrCreatePki(dataDirLayout(own.root))])
    expect(a.rootCaPem).toBe(b.rootCaPem)
    expect(a.issuingCaPem).toBe(b.issuingCaPem)
  })
})

describe('issueTransportCertificate', () => {
  const layout = freshLayout()

  it('issues an Open Banking style transport certificate: CN software id, OU org id, O org name, C GB; clientAuth; 2 years', async () => {
    const pki = await loadOrCreatePki(layout)
    const { certPem, keyPem } = await pki.issueTransportCertificate({
      orgId: '0015800001041RHAAY',
      orgName: 'Acme Payments, Ltd',
      softwareId: 'HQuZPIt3ipkh33Uxytox1E',
    })
    const cert = new X509Certificate(certPem)
    const issuing = new X509Certificate(pki.issuingCaPem)
    expect(cert.subject.split('\n')).toEqual([
      'C=GB',
      'O=Acme Payments\\, Ltd',
      'OU=0015800001041RHAAY',
      'CN=HQuZPIt3ipkh33Uxytox1E',
    ])
    expect(cert.issuer).toBe(issuing.subject)
    expect(cert.checkIssued(issuing) && cert.verify(issuing.publicKey)).toBe(true)
    expect(cert.ca).toBe(false)
    expect(cert.keyUsage).toEqual([CLIENT_AUTH])
    expect(keyPem).toMatch(/^-----BEGIN (?:)PRIVATE KEY-----\n/)
    const key = createPrivateKey(keyPem)
    expect(key.asymmetricKeyType).toBe('rsa')
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048)
    expect(cert.checkPrivateKey(key)).toBe(true)
    const days = (new Date(cert.validTo).getTime() - Date.now()) / DAY
    expect(days).toBeGreaterThan(729)
    expect(days).toBeLessThan(731)
  })

  it('gives each certificate its own key and serial number, and honours validDays', async () => {
    const pki = await loadOrCreatePki(layout)
    const input = { orgId: '0015800001ABCDEFGH', orgName: 'Org', softwareId: 'abc' }
    const a = await pki.issueTransportCertificate(input)
    const b = await pki.issueTransportCertificate({ ...input, validDays: 10 })
    expect(a.keyPem).not.toBe(b.keyPem)
    expect(new X509Certificate(a.certPem).serialNumber).not.toBe(new X509Certificate(b.certPem).serialNumber)
    const days = (new Date(new X509Certificate(b.certPem).validTo).getTime() - Date.now()) / DAY
    expect(Math.round(days)).toBe(10)
  })

  it.each([
    [{ orgId: 'bad id', orgName: 'Org', softwareId: 'abc' }, /orgId must be 1 to 35 letters and digits/],
    [{ orgId: 'ORG1', orgName: 'Org', softwareId: 'x'.repeat(23) }, /softwareId must be 1 to 22 letters and digits/],
    [{ orgId: 'ORG1', orgName: 'Org', softwareId: 'CN=evil,OU=x' }, /softwareId must be/],
    [{ orgId: 'ORG1', orgName: '', softwareId: 'abc' }, /orgName must be 1 to 64 characters/],
    [
      { orgId: 'ORG1', orgName: 'Org', softwareId: 'abc', validDays: 0 },
      /validDays must be a whole number of days from 1 to 3650/,
    ],
  ])('refuses bad input %#, naming the field', async (input, message) => {
    const pki = await loadOrCreatePki(layout)
    await expect(pki.issueTransportCertificate(input)).rejects.toThrow(message)
  })
})
