import 'reflect-metadata'
import { X509Certificate } from 'node:crypto'
import { connect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxOptions } from '../../../../src-main/local-sandbox/index.ts'
import { startTestSandbox } from '../support/sandbox-fixture.ts'
import { selfSigned, withCertificate } from '../support/self-signed.ts'
import type { TestTpp } from '../support/test-tpp.ts'

const AIS = '/open-banking/v4.0/aisp'

async function createConsent(tpp: TestTpp, baseUrl: string, token: string) {
  return tpp.call('POST', `${baseUrl}${AIS}/account-access-consents`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} }),
  })
}

async function setUp(options: SandboxOptions) {
  const env = await startTestSandbox(options)
  const tpp = await env.onboard()
  const extra: TestTpp[] = []
  const as = async (opts: Parameters<typeof selfSigned>[1]) => {
    const other = withCertificate(tpp, await selfSigned(tpp, opts))
    extra.push(other)
    return other
  }
  return {
    env,
    tpp,
    as,
    close: async () => {
      await Promise.all(extra.map((t) => t.close()))
      await env.stop()
    },
  }
}

describe('transport certificates self-signed-allowed (the default)', () => {
  let s: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    s = await setUp({})
  })
  afterAll(async () => s.close())

  it('the sandbox reports the profile', () => {
    expect(s.env.sandbox.transportCertificates).toBe('self-signed-allowed')
  })

  it('accepts a self-signed certificate with the issued subject and key for registration, token and AIS; the token binds to it', async () => {
    const self = await s.as({})
    const client = await self.register()
    expect(client.clientId).toBeTruthy()
    const cc = await self.clientCredentials(client, 'accounts')
    const thumbprint = new X509Certificate(self.kit.transportCertPem).fingerprint256.replaceAll(':', '')
    const stored = (await s.env.sandbox.context.store.oidc.find('ClientCredentials', cc))?.payload as Record<
      string,
      unknown
    >
    expect(stored['x5t#S256']).toBe(Buffer.from(thumbprint, 'hex').toString('base64url'))
    const consent = await createConsent(self, s.env.sandbox.baseUrl, cc)
    expect(consent.status).toBe(201)
    // Bound to the self-signed certificate: the CA-issued one (same key) cannot use the token.
    const viaIssued = await createConsent(s.tpp, s.env.sandbox.baseUrl, cc)
    expect(viaIssued.status).toBe(401)
  })

  it('refuses a self-signed certificate with the right subject but another key, naming the key', async () => {
    const other = await s.as({ newKey: true })
    const reg = await other.postRegistration(await other.signRegistration(other.registrationClaims()))
    expect(reg.status).toBe(401)
    expect(reg.json.error_description).toMatch(
      /self-signed, and its public key is not the key of the registered transport certificate/,
    )
    const client = await s.tpp.register()
    const token = await other.tokenRequest(client, { grant_type: 'client_credentials', scope: 'accounts' })
    expect(token.status).toBe(401)
  })

  it('refuses a self-signed certificate with the issued key but another subject, naming the subject', async () => {
    const issued = new X509Certificate(s.tpp.kit.transportCertPem)
    const other = await s.as({
      subject: issued.subject
        .split('\n')
        .reverse()
        .join(', ')
        .replace(/O=[^,]+/, 'O=Someone Else'),
    })
    const reg = await other.postRegistration(await other.signRegistration(other.registrationClaims()))
    expect(reg.status).toBe(401)
    expect(reg.json.error_description).toMatch(
      /self-signed, and its subject .*O=Someone Else.* differs from the registered transport certificate's/,
    )
  })
})

describe('transport certificates ca-issued (production-like)', () => {
  let s: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    s = await setUp({ transportCertificates: 'ca-issued' })
  })
  afterAll(async () => s.close())

  it('refuses the self-signed certificate with the issued subject and key, with a 401 that names the profile', async () => {
    const self = await s.as({})
    const reg = await self.postRegistration(await self.signRegistration(self.registrationClaims()))
    expect(reg.status).toBe(401)
    expect(reg.json.error_description).toMatch(
      /self-signed, and this sandbox runs with transport certificates "ca-issued"/,
    )
    const client = await s.tpp.register()
    const token = await self.tokenRequest(client, { grant_type: 'client_credentials', scope: 'accounts' })
    expect(token.status).toBe(401)
    const cc = await s.tpp.clientCredentials(client, 'accounts')
    expect((await createConsent(s.tpp, s.env.sandbox.baseUrl, cc)).status).toBe(201)
    const consent = await createConsent(self, s.env.sandbox.baseUrl, cc)
    expect(consent.status).toBe(401)
    expect(consent.headers['www-authenticate']).toMatch(
      /self-signed, and this sandbox runs with transport certificates/,
    )
  })

  it('refuses a self-signed certificate with another key too', async () => {
    const other = await s.as({ newKey: true })
    const reg = await other.postRegistration(await other.signRegistration(other.registrationClaims()))
    expect(reg.status).toBe(401)
  })
})

/** Whether a TLS connection with this client certificate survives to carry a request. */
function connectsAndAnswers(url: string, ca: string, cert: { certPem: string; keyPem: string }): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname,
      port: Number(port),
      ca,
      cert: cert.certPem,
      key: cert.keyPem,
      servername: undefined,
    })
    let answered = false
    socket.on('secureConnect', () =>
      socket.write(`GET ${AIS}/accounts HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
    )
    socket.on('data', () => {
      answered = true
    })
    socket.on('error', () => {})
    socket.on('close', () => resolve(answered))
    socket.setTimeout(10_000, () => socket.destroy())
  })
}

describe('--tls-mode handshake with self-signed-allowed', () => {
  let s: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    s = await setUp({ tlsMode: 'handshake' })
  })
  afterAll(async () => s.close())

  it('keeps the matching self-signed certificate and closes the connection of one with another key', async () => {
    const ca = s.env.sandbox.caBundlePem
    expect(await connectsAndAnswers(s.env.sandbox.baseUrl, ca, await selfSigned(s.tpp))).toBe(true)
    expect(await connectsAndAnswers(s.env.sandbox.baseUrl, ca, await selfSigned(s.tpp, { newKey: true }))).toBe(false)
  })
})

describe('--tls-mode handshake with ca-issued', () => {
  let s: Awaited<ReturnType<typeof setUp>>
  beforeAll(async () => {
    s = await setUp({ tlsMode: 'handshake', transportCertificates: 'ca-issued' })
  })
  afterAll(async () => s.close())

  it('refuses the self-signed certificate at the handshake, and keeps the CA-issued one', async () => {
    const ca = s.env.sandbox.caBundlePem
    expect(await connectsAndAnswers(s.env.sandbox.baseUrl, ca, await selfSigned(s.tpp))).toBe(false)
    expect(
      await connectsAndAnswers(s.env.sandbox.baseUrl, ca, {
        certPem: s.tpp.kit.transportCertPem,
        keyPem: s.tpp.kit.transportKeyPem,
      }),
    ).toBe(true)
  })
})
