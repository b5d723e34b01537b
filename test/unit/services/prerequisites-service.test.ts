import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { createSelfSignedCertificate, openBankingSubject } from '../../../src-main/certificates/generate.ts'
import { directoryPrerequisiteChecks } from '../../../src-main/services/prerequisites-service.ts'
import type { TppRecord } from '../../../src-main/services/persistence/settings-schema.ts'

const ORG = '0015800001041RHAAY'
const SOFTWARE = 'HQuZPIt3ipkh33Uxytox1E'

async function material(opts: { certOrg?: string; signWith?: 'directory' | 'other' }) {
  const directory = await generateKeyPair('PS256')
  const other = await generateKeyPair('PS256')
  const jwks = { keys: [{ ...(await exportJWK(directory.publicKey)), kid: 'dir-1' }] }
  const ssa = await new SignJWT({
    org_id: ORG,
    software_id: SOFTWARE,
    software_roles: ['AISP'],
    software_redirect_uris: ['https://app.example/cb'],
  })
    .setProtectedHeader({ alg: 'PS256', kid: 'dir-1', typ: 'JWT' })
    .setIssuedAt()
    .sign(opts.signWith === 'other' ? other.privateKey : directory.privateKey)
  const cert = await createSelfSignedCertificate({
    subject: openBankingSubject({ orgId: opts.certOrg ?? ORG, softwareId: SOFTWARE }),
  })
  const record: TppRecord = {
    id: 't',
    name: 'T',
    orgId: ORG,
    softwareId: SOFTWARE,
    ssa,
    redirectUris: ['https://app.example/cb'],
    transport: { certificatePem: cert.certPem, keySecretId: 'k', keyInfo: {} as never },
    createdAt: new Date().toISOString(),
  }
  return { record, jwks }
}

const byName = (checks: Array<{ name: string; pass: boolean; severity?: string; actual?: string }>, name: string) =>
  checks.find((c) => c.name === name)!

describe('directoryPrerequisiteChecks', () => {
  it('passes a consistent identity: org id, SSA signature and kid, OU and CN, redirect URIs', async () => {
    const { record, jwks } = await material({})
    const checks = await directoryPrerequisiteChecks(record, { source: 'the test directory', orgExists: true, jwks })
    expect(checks.filter((c) => !c.pass)).toEqual([])
    expect(checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'Organisation id format',
        'Software statement signed by the directory',
        "Software statement kid on the directory's JWKS",
        "Transport certificate organisation (OU) is the SSA's org_id",
        "Redirect URIs within the SSA's",
      ]),
    )
  })

  it('fails a transport certificate of another organisation, an SSA signed by another key, an unknown org and a redirect URI outside the SSA', async () => {
    const { record, jwks } = await material({ certOrg: '0015800009999ZZZZZ', signWith: 'other' })
    const checks = await directoryPrerequisiteChecks(
      { ...record, redirectUris: ['https://app.example/cb', 'https://evil.example/cb'] },
      { source: 'the test directory', orgExists: false, jwks },
    )
    expect(byName(checks, "Transport certificate organisation (OU) is the SSA's org_id")).toMatchObject({
      pass: false,
      actual: 'OU=0015800009999ZZZZZ',
    })
    expect(byName(checks, 'Software statement signed by the directory').pass).toBe(false)
    expect(byName(checks, "Software statement kid on the directory's JWKS").pass).toBe(true)
    expect(byName(checks, 'Organisation exists in the directory').pass).toBe(false)
    expect(byName(checks, "Redirect URIs within the SSA's")).toMatchObject({
      pass: false,
      actual: 'not in the SSA: https://evil.example/cb',
    })
  })

  it('says what cannot be checked offline instead of passing it in silence, and refuses a malformed org id', async () => {
    const { record } = await material({})
    const checks = await directoryPrerequisiteChecks(
      { ...record, ssa: undefined, orgId: 'acme' },
      { source: "the bank's directory", unavailable: "the bank's directory has no API the console can ask offline" },
    )
    expect(byName(checks, 'Organisation id format')).toMatchObject({ pass: false, actual: 'acme' })
    expect(byName(checks, 'Organisation exists in the directory')).toMatchObject({
      severity: 'warning',
      actual: expect.stringContaining('not checked'),
    })
    expect(byName(checks, 'Software statement signed by the directory').pass).toBe(false)
  })
})
