import { generateKeyPairSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { keyInfo } from '../../../src-main/certificates/key-info.ts'
import type { TppRecord } from '../../../src-main/services/persistence/settings-schema.ts'
import { tppIdentityDto } from '../../../src-main/services/tpp-identity-dto.ts'
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
