import { generateKeyPairSync } from 'node:crypto'
import { serialize } from 'node:v8'
import { beforeAll, describe, expect, it } from 'vitest'
import { keyInfo } from '../../../src-main/certificates/key-info.ts'
import type { TppRecord } from '../../../src-main/services/persistence/settings-schema.ts'
import { tppIdentityDto } from '../../../src-main/services/tpp-identity-dto.ts'
import { inspectCertificate } from '../../../src-main/certificates/inspect.ts'
import { parseCertificates } from '../../../src-main/certificates/import-pem.ts'
import { ORG_ID, SOFTWARE_ID, ssaClaims, testPki, unsignedJwt, type TestPki } from '../certificates/pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

const now = new Date()
const base: TppRecord = {
  id: 'tpp-1',
  name: 'Budget app',
  redirectUris: ['https://app.example/cb'],
  createdAt: '2026-01-01T00:00:00.000Z',
}

describe('tppIdentityDto', () => {
  it('shows the certificates inspected, the software statement decoded and the keys by their public facts', async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    const dto = tppIdentityDto(
      {
        ...base,
        ssa: unsignedJwt(ssaClaims()),
        transport: { certificatePem: pki.transport.certPem, keySecretId: 's1', keyInfo: await keyInfo(key, 's1') },
        signing: { kid: 'kid-1', keySecretId: 's2', keyInfo: await keyInfo(key, 's2') },
        rootCaPem: pki.root.certPem,
        issuingCaPem: pki.issuing.certPem,
      },
      now,
    )
    expect(dto.transport?.certificate).toMatchObject({ orgId: ORG_ID, softwareId: SOFTWARE_ID })
    expect(dto.transport?.key.publicJwk).not.toHaveProperty('d')
    expect(dto.signing).toMatchObject({ kid: 'kid-1' })
    expect(dto.signing).not.toHaveProperty('certificate')
    expect(dto.rootCa?.subjectDn).toMatch(/Test Root CA/)
    expect(dto.issuingCa?.subjectDn).toMatch(/Test Issuing CA/)
    expect(dto.softwareStatement).toMatchObject({ softwareId: SOFTWARE_ID })
    expect(JSON.stringify(dto)).not.toMatch(/PRIVATE KEY|keySecretId/)
  })

  it('inspects each certificate when it is first read, and every reader of the answer reads it whole', async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    const record: TppRecord = {
      ...base,
      transport: { certificatePem: pki.transport.certPem, keySecretId: 's1', keyInfo: await keyInfo(key, 's1') },
      rootCaPem: pki.root.certPem,
      issuingCaPem: pki.issuing.certPem,
    }
    const dto = tppIdentityDto(record, now)
    // Not inspected yet: the command line's onboarding reads only the ids.
    expect(Object.getOwnPropertyDescriptor(dto.transport!, 'certificate')?.get).toBeTypeOf('function')
    expect(Object.getOwnPropertyDescriptor(dto, 'rootCa')?.get).toBeTypeOf('function')
    expect(Object.keys(dto)).toEqual(['id', 'name', 'transport', 'rootCa', 'issuingCa', 'redirectUris', 'createdAt'])
    const inspected = (pem: string) => inspectCertificate(parseCertificates(pem)[0]!, now)
    const whole = {
      id: 'tpp-1',
      name: 'Budget app',
      transport: { key: record.transport!.keyInfo, certificate: inspected(pki.transport.certPem) },
      rootCa: inspected(pki.root.certPem),
      issuingCa: inspected(pki.issuing.certPem),
      redirectUris: base.redirectUris,
      createdAt: base.createdAt,
    }
    // JSON (the web host), V8's serialiser (Electron's IPC) and structuredClone read every inspection.
    expect(JSON.parse(JSON.stringify(tppIdentityDto(record, now)))).toEqual(JSON.parse(JSON.stringify(whole)))
    expect(structuredClone(tppIdentityDto(record, now))).toEqual(whole)
    expect(serialize(tppIdentityDto(record, now))).toEqual(serialize(whole))
    // Read once, kept as a plain value.
    expect(dto.rootCa).toBe(dto.rootCa)
    expect(Object.getOwnPropertyDescriptor(dto, 'rootCa')).toMatchObject({ enumerable: true, writable: true })
  })

  it('refuses a stored certificate that does not parse when the answer is made, with its coded error', () => {
    // Its DER cut in half: a certificate no parser reads.
    const lines = pki.root.certPem.trim().split('\n')
    const broken = [...lines.slice(0, Math.floor(lines.length / 2)), lines.at(-1)].join('\n')
    expect(() => tppIdentityDto({ ...base, rootCaPem: broken }, now)).toThrow(
      expect.objectContaining({ code: 'CERTIFICATE_INVALID' }),
    )
  })

  it('keeps a software statement it cannot read, undecoded, and leaves out what the identity lacks', () => {
    const dto = tppIdentityDto({ ...base, ssa: 'not-a-jwt' }, now)
    expect(dto.ssa).toBe('not-a-jwt')
    expect(dto.softwareStatement).toBeUndefined()
    expect(tppIdentityDto(base, now)).toEqual({
      id: 'tpp-1',
      name: 'Budget app',
      redirectUris: ['https://app.example/cb'],
      createdAt: '2026-01-01T00:00:00.000Z',
    })
  })
})
