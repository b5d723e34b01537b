import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, describe, expect, it } from 'vitest'
import { lastJson, runCli } from './support/run-cli.ts'
import { createSelfSignedCertificate, issueCertificate } from '../../../src-main/certificates/generate.ts'
import { x509 } from '../../../src-main/plumbing/x509.ts'

const TMP = mkdtempSync(join(tmpdir(), 'ob-cli-commands-'))
afterAll(() => rmSync(TMP, { recursive: true, force: true }))

const run = (args: string[], stdin?: string) =>
  runCli(args, {
    env: { OB_CONSOLE_DATA_DIR: join(TMP, 'default-data') },
    timeoutMs: 90_000,
    ...(stdin ? { stdin } : {}),
  })

describe('ob-console jwt: errors that say what is wrong', { timeout: 180_000 }, () => {
  it('decode: a malformed token is a malformed token (JWT_MALFORMED), not a missing file (ENOENT)', async () => {
    const r = await run(['jwt', 'decode', 'abc.def', '--json'])
    expect(r.code).toBe(1)
    expect(lastJson(r).error.code).toBe('JWT_MALFORMED')
    expect(r.stderr).toContain('No file of that name exists either')
    expect(r.stderr).not.toContain('ENOENT')
  })

  it('decode: an argument that is neither a file nor a token is a usage error', async () => {
    const r = await run(['jwt', 'decode', './no-such-file'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('is neither a file nor a JWT')
  })

  it('verify --key takes a JWKS file and picks the key by kid', async () => {
    const { publicKey, privateKey } = await generateKeyPair('PS256')
    const other = await generateKeyPair('PS256')
    const jwks = {
      keys: [
        { ...(await exportJWK(other.publicKey)), kid: 'other' },
        { ...(await exportJWK(publicKey)), kid: 'mine' },
      ],
    }
    const file = join(TMP, 'keys.jwks.json')
    writeFileSync(file, JSON.stringify(jwks))
    const token = await new SignJWT({ sub: 'x' })
      .setProtectedHeader({ alg: 'PS256', kid: 'mine', typ: 'JWT' })
      .setIssuedAt()
      .sign(privateKey)
    const ok = await run(['jwt', 'verify', token, '--key', file, '--json'])
    expect(ok.code, ok.stderr).toBe(0)
    expect(lastJson(ok).checks.find((c: { name: string }) => c.name === 'signature').pass).toBe(true)
    const wrong = await new SignJWT({ sub: 'x' })
      .setProtectedHeader({ alg: 'PS256', kid: 'mine', typ: 'JWT' })
      .sign(other.privateKey)
    const bad = await run(['jwt', 'verify', wrong, '--key', file, '--json'])
    expect(bad.code).toBe(1)
    expect(lastJson(bad).checks.find((c: { name: string }) => c.name === 'signature').pass).toBe(false)
  })

  it('verify --jwks without --ca on a server of a private CA: TLS_SERVER_UNTRUSTED, with --ca as the fix', async () => {
    const root = await createSelfSignedCertificate({ subject: 'CN=Test Root', ca: { pathLength: 0 } })
    const leaf = await issueCertificate(root, {
      subject: 'CN=127.0.0.1',
      subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }],
      extendedKeyUsages: ['serverAuth'],
    })
    const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.end('{"keys":[]}'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'PS256', kid: 'k' })
        .sign((await generateKeyPair('PS256')).privateKey)
      const r = await run(['jwt', 'verify', token, '--jwks', url, '--json'])
      expect(r.code).toBe(1)
      expect(lastJson(r).error.code).toBe('TLS_SERVER_UNTRUSTED')
      expect(r.stderr).toContain('--ca FILE')
    } finally {
      server.close()
    }
  })
})

describe('ob-console cert generate|attach', { timeout: 180_000 }, () => {
  it('writes CSRs with the Open Banking subject, a self-signed certificate and a JWKS; the private keys only in the encrypted store', async () => {
    const out = join(TMP, 'kit')
    const store = join(TMP, 'store-a')
    const r = await run([
      'cert',
      'generate',
      '--org-id',
      '0015800001041RHAAY',
      '--software-id',
      'HQuZPIt3ipkh33Uxytox1E',
      '--self-signed',
      '--out',
      out,
      '--tpp',
      'Acme',
      '--data-dir',
      store,
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    const result = lastJson(r)
    expect(result.subjectDn).toBe('CN=HQuZPIt3ipkh33Uxytox1E,OU=0015800001041RHAAY,O=OpenBanking,C=GB')
    expect(readdirSync(out).sort()).toEqual([
      'public.jwks.json',
      'signing.csr.pem',
      'transport.cert.pem',
      'transport.csr.pem',
    ])
    const csr = new x509.Pkcs10CertificateRequest(readFileSync(join(out, 'transport.csr.pem'), 'utf8'))
    expect(await csr.verify()).toBe(true)
    const cert = new x509.X509Certificate(readFileSync(join(out, 'transport.cert.pem'), 'utf8'))
    // The certificate and the CSR are over one key.
    expect(Buffer.from(cert.publicKey.rawData).equals(Buffer.from(csr.publicKey.rawData))).toBe(true)
    const jwks = JSON.parse(readFileSync(join(out, 'public.jwks.json'), 'utf8'))
    expect(jwks.keys.map((k: { use: string }) => k.use)).toEqual(['tls', 'sig'])
    expect(jwks.keys.every((k: Record<string, unknown>) => !('d' in k) && !('p' in k))).toBe(true)
    expect(jwks.keys[1].kid).toBe(result.signingKid)
    for (const text of [r.stdout, r.stderr, ...readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'))])
      expect(text).not.toContain('PRIVATE KEY')
    const secrets = readdirSync(join(store, 'secrets')).filter((f) => f.endsWith('.secret'))
    expect(secrets).toHaveLength(2)
    for (const f of secrets) expect(readFileSync(join(store, 'secrets', f), 'utf8')).not.toContain('PRIVATE KEY')
  })

  it('a CSR-only transport key waits for its certificate; attach pairs the issued certificate with it, and refuses a foreign one', async () => {
    const out = join(TMP, 'kit-b')
    const store = join(TMP, 'store-b')
    const r = await run([
      'cert',
      'generate',
      '--org-id',
      '0015800001041RHAAY',
      '--software-id',
      'Soft1',
      '--role',
      'transport',
      '--key-type',
      'EC-P256',
      '--out',
      out,
      '--tpp',
      'Beta',
      '--data-dir',
      store,
      '--json',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(lastJson(r).transportWaitsForCertificate).toBe(true)
    const csr = new x509.Pkcs10CertificateRequest(readFileSync(join(out, 'transport.csr.pem'), 'utf8'))
    const ca = await createSelfSignedCertificate({ subject: 'CN=Directory CA', ca: { pathLength: 0 } })
    const issued = await x509.X509CertificateGenerator.create({
      subject: csr.subjectName,
      issuer: ca.cert.subjectName,
      publicKey: csr.publicKey,
      signingKey: ca.keys.privateKey,
      serialNumber: '01',
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    })
    const foreign = await createSelfSignedCertificate({ subject: 'CN=someone else' })
    writeFileSync(join(TMP, 'foreign.pem'), foreign.certPem)
    const refused = await run([
      'cert',
      'attach',
      '--tpp',
      'Beta',
      '--cert',
      join(TMP, 'foreign.pem'),
      '--data-dir',
      store,
      '--json',
    ])
    expect(refused.code).toBe(1)
    expect(lastJson(refused).error.code).toBe('KEY_MISMATCH')
    writeFileSync(join(TMP, 'issued.pem'), issued.toString('pem'))
    const attached = await run([
      'cert',
      'attach',
      '--tpp',
      'Beta',
      '--cert',
      join(TMP, 'issued.pem'),
      '--data-dir',
      store,
      '--json',
    ])
    expect(attached.code, attached.stderr).toBe(0)
    expect(lastJson(attached).transport.subjectDn).toBe('CN=Soft1,OU=0015800001041RHAAY,O=OpenBanking,C=GB')
  })

  it('refuses a signing key that is not RSA and an organisation id of the wrong shape, with coded errors', async () => {
    const ec = await run([
      'cert',
      'generate',
      '--org-id',
      '0015800001041RHAAY',
      '--software-id',
      'S',
      '--role',
      'signing',
      '--key-type',
      'EC-P256',
      '--out',
      join(TMP, 'x'),
      '--data-dir',
      join(TMP, 'store-c'),
      '--json',
    ])
    expect(lastJson(ec).error.code).toBe('KEY_UNSUPPORTED')
    const org = await run([
      'cert',
      'generate',
      '--org-id',
      'acme',
      '--software-id',
      'S',
      '--out',
      join(TMP, 'x'),
      '--data-dir',
      join(TMP, 'store-c'),
      '--json',
    ])
    expect(lastJson(org).error.code).toBe('INVALID_INPUT')
    expect(org.stderr).toContain('is not an organisation id')
  })
})

describe('ob-console --env FILE', { timeout: 180_000 }, () => {
  it('refuses an environment file holding a private key or a secret inline (SECRET_INLINE), without echoing it', async () => {
    const file = join(TMP, 'leaky.json')
    writeFileSync(
      file,
      JSON.stringify({
        format: 'ob-console.environment/1',
        name: 'Leaky',
        kind: 'bank-sandbox',
        baseUrl: 'https://bank.example',
        authUrl: 'https://auth.bank.example',
        tls: { verify: 'off' },
        client: { clientId: 'c1', clientSecret: 's3cr3t-value' },
      }),
    )
    const r = await run(['discovery', '--env', file, '--data-dir', join(TMP, 'store-d'), '--json'])
    expect(r.code).toBe(1)
    expect(lastJson(r).error.code).toBe('SECRET_INLINE')
    expect(r.stdout + r.stderr).not.toContain('s3cr3t-value')
  })
})
