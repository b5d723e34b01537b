import { calculateJwkThumbprint, type JWK } from 'jose'
import { x509 } from '../../../src-main/plumbing/x509.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { CheckResult } from '../../../src-main/contract/checks.ts'
import { freshRuntime, ok, registeredClient } from './journey-support.ts'

const PRIVATE_ARMOUR = ['PRIVATE', 'KEY-----'].join(' ')
const byName = (checks: CheckResult[], name: string) => checks.find((c) => c.name === name)

describe('the TPP tools over the contract (prerequisites, keys, discovery pre-flight, Postman import)', () => {
  let rt: ConsoleRuntime
  let environmentId: string
  let tppId: string
  let clientId: string
  beforeAll(async () => {
    rt = await freshRuntime()
    ;({ environmentId, tppId, clientId } = await registeredClient(rt.handlers, 'strict-headless'))
  }, 120_000)
  afterAll(async () => {
    await rt?.stop()
  })

  it('checks the local identity against the local directory: every item passes, the directory asked', async () => {
    const checks = ok(await rt.handlers['prerequisites.check']({ tppId, environmentId }))
    expect(checks.filter((c) => !c.pass)).toEqual([])
    expect(byName(checks, 'Organisation exists in the directory')?.actual).toBe('registered')
    expect(byName(checks, 'Software statement signed by the directory')?.actual).toBe('valid')
    const names = ["Redirect URIs within the SSA's", "Transport certificate software (CN) is the SSA's software_id"]
    expect(checks.map((c) => c.name)).toEqual(expect.arrayContaining(names))
  })

  it('refuses a directory JWKS that is neither a URL nor a JWKS, naming the fix', async () => {
    const r = await rt.handlers['prerequisites.check']({ tppId, environmentId, directoryJwks: '{"nokeys": 1}' })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toMatchObject({ code: 'INVALID_INPUT', what: 'The directory JWKS has no "keys" array.' })
  })

  it('generates keys and CSRs with the Open Banking subject, answers only public parts, and a certificate of another org fails the prerequisites', async () => {
    const out = ok(
      await rt.handlers['certificates.generate']({
        tppId,
        orgId: '0015800001041RHAAY',
        softwareId: 'OtherSoftware1',
        keyType: 'RSA-2048',
        roles: ['transport', 'signing'],
        selfSigned: true,
      }),
    )
    expect(JSON.stringify(out)).not.toContain(PRIVATE_ARMOUR)
    expect(out.jwks.keys.every((k) => !('d' in k) && !('p' in k))).toBe(true)
    // The public parts pass the answer's secret masking whole: the modulus and the kid as made.
    expect(out.jwks.keys[0]!.n).toMatch(/^[A-Za-z0-9_-]{340,}$/)
    expect(out.jwks.keys[1]!.kid).toBe(out.signing!.kid)
    // The transport key has a kid too: its RFC 7638 thumbprint.
    const { kid: tlsKid, use, ...members } = out.jwks.keys[0]!
    expect(use).toBe('tls')
    expect(tlsKid).toBe(await calculateJwkThumbprint(members as JWK, 'sha256'))
    const csr = new x509.Pkcs10CertificateRequest(out.transport!.csrPem)
    expect(csr.subject).toContain('OU=0015800001041RHAAY')
    expect(csr.subject).toContain('CN=OtherSoftware1')
    expect(out.transport!.certificatePem).toContain('BEGIN CERTIFICATE')
    expect(out.signing!.kid).toMatch(/\S{20,}/)

    const checks = ok(await rt.handlers['prerequisites.check']({ tppId, environmentId }))
    const ou = byName(checks, "Transport certificate organisation (OU) is the SSA's org_id")!
    expect(ou.pass).toBe(false)
    expect(ou.actual).toBe('OU=0015800001041RHAAY')
    expect(ou.hint).toContain('use the certificate issued for this organisation')
  })

  it('a CSR-only transport key waits for its certificate; attaching a certificate over another key is refused', async () => {
    const ecTransport = { orgId: '0015800001041RHAAY', keyType: 'EC-P256' } as const
    const out = ok(
      await rt.handlers['certificates.generate']({
        ...ecTransport,
        roles: ['transport'],
        tppName: 'CSR only',
        softwareId: 'CsrOnly',
      }),
    )
    expect(out.transport?.waitsForCertificate).toBe(true)
    const other = ok(
      await rt.handlers['certificates.generate']({
        ...ecTransport,
        roles: ['transport'],
        tppName: 'Other',
        softwareId: 'Other',
        selfSigned: true,
      }),
    )
    const r = await rt.handlers['certificates.attach']({
      tppId: out.tppId,
      role: 'transport',
      certificatePem: other.transport!.certificatePem!,
    })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('KEY_MISMATCH')
    const bad = await rt.handlers['certificates.generate']({
      orgId: 'short',
      softwareId: 'x',
      keyType: 'RSA-2048',
      roles: ['signing'],
    })
    expect(!bad.ok && bad.error.code).toBe('INVALID_INPUT')
    const ec = await rt.handlers['certificates.generate']({
      orgId: '0015800001041RHAAY',
      softwareId: 'x',
      keyType: 'EC-P256',
      roles: ['signing'],
    })
    expect(!ec.ok && ec.error.code).toBe('KEY_UNSUPPORTED')
  })

  it('discovery.view checks claims about to be sent: a request object algorithm the bank does not advertise is named', async () => {
    const view = ok(
      await rt.handlers['discovery.view']({
        environmentId,
        claims: { request_object_signing_alg: 'RS256', scope: 'openid accounts' },
      }),
    )
    const alg = byName(view.checks, 'registered request_object_signing_alg')!
    expect(alg.pass).toBe(false)
    expect(alg.actual).toBe('["PS256","none"]')
    expect(byName(view.checks, 'registered scope accounts')?.pass).toBe(true)
  })

  it('imports a Postman environment as a bank-sandbox environment, keeping its client for the identity named', async () => {
    const json = JSON.stringify({
      name: 'Bank sandbox (Postman)',
      values: [
        { key: 'base_url', value: 'https://ob.bank.example' },
        { key: 'auth_url', value: 'https://auth.bank.example' },
        { key: 'aisBasePath', value: 'https://ob.bank.example/open-banking/v4.0/aisp' },
        { key: 'client_id', value: 'pm-client-1' },
        { key: 'client_secret', value: 's3cret-value' },
      ],
    })
    const without = ok(await rt.handlers['environments.importPostman']({ json }))
    expect(without.clientId).toBeUndefined()
    expect(without.notes[0]).toContain('name the identity')
    const imported = ok(await rt.handlers['environments.importPostman']({ json, tppId }))
    expect(imported.environment).toMatchObject({
      id: without.environment.id,
      kind: 'bank-sandbox',
      baseUrl: 'https://ob.bank.example',
      tlsVerification: 'off',
    })
    expect(imported.environment.apiPaths.ais).toBe('/open-banking/v4.0/aisp')
    expect(imported.clientId).toBe('pm-client-1')
    expect(ok(await rt.handlers['clients.current']({ environmentId: imported.environment.id })).clientId).toBe(
      'pm-client-1',
    )
    const kept = ok(await rt.handlers['clients.list']({ environmentId: imported.environment.id }))[0]
    expect(kept).toMatchObject({ clientId: 'pm-client-1', hasSecret: true, authMethod: 'client_secret_basic' })
    // The same file again, no identity named: the environment's identity keeps the client.
    const reimported = ok(await rt.handlers['environments.importPostman']({ json }))
    expect(reimported).toMatchObject({ clientId: 'pm-client-1', notes: ['The client secret is stored encrypted.'] })
    // The local client stays where it is.
    const local = {
      values: [
        { key: 'base_url', value: 'https://x.example' },
        { key: 'auth_url', value: 'https://y.example' },
        { key: 'client_id', value: clientId },
      ],
    }
    const again = ok(
      await rt.handlers['environments.importPostman']({ json: JSON.stringify(local), tppId, name: 'Other' }),
    )
    expect(again.clientId).toBeUndefined()
    expect(again.notes[0]).toContain('already kept for another environment')
    const notJson = await rt.handlers['environments.importPostman']({ json: 'nope' })
    expect(!notJson.ok && notJson.error.what).toBe('The Postman environment is not JSON.')
  })
})
