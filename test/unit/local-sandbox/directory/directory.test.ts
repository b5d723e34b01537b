import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  SignJWT,
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importPKCS8,
} from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { dataDirLayout, type DataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import {
  DIRECTORY_ISSUER,
  createDirectory,
  type LocalDirectory,
} from '../../../../src-main/local-sandbox/directory/directory.ts'
import { SoftwareStatementError, type StarterKit } from '../../../../src-main/local-sandbox/directory/types.ts'
import { certificateIdentity, type PeerCertificate } from '../../../../src-main/local-sandbox/http/peer-certificate.ts'
import { loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'

const ADDRESSES = {
  baseUrl: 'https://127.0.0.1:18443',
  authUrl: 'https://127.0.0.1:18444',
  directoryUrl: 'https://127.0.0.1:18445',
}
const roots: string[] = []

async function openDirectory(
  layout?: DataDirLayout,
): Promise<{ directory: LocalDirectory; layout: DataDirLayout; logs: string[] }> {
  if (!layout) {
    const root = mkdtempSync(join(tmpdir(), 'ob-directory-test-'))
    roots.push(root)
    layout = dataDirLayout(root)
  }
  const logs: string[] = []
  const pki = await loadOrCreatePki(layout)
  const directory = await createDirectory({
    addresses: ADDRESSES,
    layout,
    clock: new SandboxClock(),
    pki,
    log: (l) => logs.push(l),
  })
  return { directory, layout, logs }
}

async function refusal(promise: Promise<unknown>): Promise<SoftwareStatementError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(SoftwareStatementError)
  return err as SoftwareStatementError
}

afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true })
})

describe('the local directory', () => {
  let directory: LocalDirectory
  let layout: DataDirLayout
  let kit: StarterKit

  beforeAll(async () => {
    ;({ directory, layout } = await openDirectory())
    kit = await directory.onboard({ orgName: 'Acme Payments', clientName: 'Acme App', roles: ['AISP'] })
  })

  it('onboards with Open Banking shaped ids, the given names and roles, and the default redirect URIs', () => {
    expect(kit.orgId).toMatch(/^0015800001[0-9A-Z]{8}$/)
    expect(kit.softwareId).toMatch(/^[0-9A-Za-z]{22}$/)
    expect(kit).toMatchObject({ orgName: 'Acme Payments', clientName: 'Acme App', roles: ['AISP'] })
    expect(kit.redirectUris).toEqual([
      'https://127.0.0.1:53682/callback',
      'http://127.0.0.1:53682/callback',
      'ob-console://oauth/callback',
    ])
    expect(kit.jwksEndpoint).toBe(`${ADDRESSES.directoryUrl}/organisation/${kit.orgId}/software/${kit.softwareId}/jwks`)
  })

  it('gives the TPP a PS256 RSA 2048 signing key whose kid is its RFC 7638 thumbprint', async () => {
    const key = createPrivateKey(kit.signingKeyPem)
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048)
    expect(kit.jwks.keys).toHaveLength(1)
    const jwk = kit.jwks.keys[0]!
    expect(jwk).toMatchObject({ kty: 'RSA', kid: kit.signingKid, use: 'sig', alg: 'PS256' })
    expect(jwk).not.toHaveProperty('d')
    expect(await calculateJwkThumbprint(jwk)).toBe(kit.signingKid)
    // The public JWK is the public half of the private key.
    expect(createPublicKey(key).export({ format: 'jwk' }).n).toBe(jwk.n)
  })

  it('issues a transport certificate for the software from the issuing CA', () => {
    const cert = new X509Certificate(kit.transportCertPem)
    expect(cert.subject.split('\n')).toEqual(['C=GB', 'O=Acme Payments', `OU=${kit.orgId}`, `CN=${kit.softwareId}`])
    expect(cert.checkPrivateKey(createPrivateKey(kit.transportKeyPem))).toBe(true)
    const issuing = new X509Certificate(kit.caBundlePem.split(/(?<=-----END CERTIFICATE-----\n)/)[1]!)
    expect(cert.verify(issuing.publicKey)).toBe(true)
  })

  it('signs an SSA with the Open Banking directory claims (typ JWT, alg PS256, the directory kid)', () => {
    const header = decodeProtectedHeader(kit.ssa)
    expect(header).toEqual({ typ: 'JWT', alg: 'PS256', kid: directory.publicJwks().keys[0]!.kid })
    const claims = decodeJwt(kit.ssa)
    expect(claims).toMatchObject({
      iss: DIRECTORY_ISSUER,
      software_id: kit.softwareId,
      software_client_id: kit.softwareId,
      software_client_name: 'Acme App',
      software_environment: 'sandbox',
      software_mode: 'Test',
      software_roles: ['AISP'],
      software_redirect_uris: kit.redirectUris,
      software_jwks_endpoint: kit.jwksEndpoint,
      software_jwks_revoked_endpoint: `${ADDRESSES.directoryUrl}/organisation/${kit.orgId}/software/${kit.softwareId}/revoked/jwks`,
      org_id: kit.orgId,
      org_name: 'Acme Payments',
      org_status: 'Active',
      org_jwks_endpoint: `${ADDRESSES.directoryUrl}/organisation/${kit.orgId}/jwks`,
      organisation_competent_authority_claims: {
        authority_id: 'FCAGBR',
        status: 'Active',
        authorisations: [{ member_state: 'GB', roles: ['AISP'] }],
      },
    })
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/)
    expect(typeof claims.software_client_description).toBe('string')
    expect(typeof claims.software_version).toBe('string')
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(60)
  })

  it('verifies its own SSA and returns its claims', async () => {
    const claims = await directory.verifySoftwareStatement(kit.ssa)
    expect(claims.software_id).toBe(kit.softwareId)
    expect(claims.org_id).toBe(kit.orgId)
  })

  it('keeps one public JSON file per TPP, with the transport certificate thumbprint and no private key', async () => {
    const files = readdirSync(join(layout.directory, 'tpps'))
    expect(files).toContain(`${kit.softwareId}.json`)
    const text = readFileSync(join(layout.directory, 'tpps', `${kit.softwareId}.json`), 'utf8')
    expect(text).not.toMatch(/PRIVATE KEY|"d":/)
    const record = JSON.parse(text)
    const thumbprint = createHash('sha256').update(new X509Certificate(kit.transportCertPem).raw).digest('base64url')
    expect(record).toMatchObject({
      orgId: kit.orgId,
      softwareId: kit.softwareId,
      orgStatus: 'Active',
      transportCertificateThumbprints: [thumbprint],
      jwks: kit.jwks,
    })
    expect(await directory.software(kit.softwareId)).toEqual(record)
  })

  it('keeps its own signing key in directory/signing-key.json (mode 0600) and reuses it on a restart', async () => {
    expect(statSync(join(layout.directory, 'signing-key.json')).mode & 0o777).toBe(0o600)
    const { directory: again } = await openDirectory(layout)
    expect(again.publicJwks()).toEqual(directory.publicJwks())
    expect((await again.verifySoftwareStatement(kit.ssa)).software_id).toBe(kit.softwareId)
  })

  it('sees at once a TPP onboarded by another directory instance (another process) on the same data dir', async () => {
    const { directory: other } = await openDirectory(layout)
    expect(await directory.software('x')).toBeUndefined()
    const otherKit = await other.onboard({})
    expect((await directory.software(otherKit.softwareId))?.orgId).toBe(otherKit.orgId)
    expect((await directory.verifySoftwareStatement(otherKit.ssa)).software_id).toBe(otherKit.softwareId)
  })

  it('returns undefined for an unknown or malformed software id, never a path outside the directory', async () => {
    expect(await directory.software('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined()
    expect(await directory.software('../signing-key')).toBeUndefined()
    expect(await directory.software('')).toBeUndefined()
  })

  it('refuses anything that is not a compact JWS as invalid_software_statement', async () => {
    for (const bad of [undefined, '', 'abc', 'a.b', 'a.b.c.d', 42]) {
      const err = await refusal(directory.verifySoftwareStatement(bad as string))
      expect(err.error).toBe('invalid_software_statement')
      expect(err.message).toMatch(/software_statement/)
    }
  })

  it('refuses a tampered SSA (signature) and an unsigned one (alg none), naming the cause', async () => {
    const [h, p, s] = kit.ssa.split('.')
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString())
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, software_roles: ['AISP', 'PISP'] })).toString('base64url')}.${s}`
    const err = await refusal(directory.verifySoftwareStatement(tampered))
    expect(err.error).toBe('invalid_software_statement')
    expect(err.message).toMatch(/signature does not verify/)

    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`
    const noneErr = await refusal(directory.verifySoftwareStatement(none))
    expect(noneErr.message).toMatch(/alg is "none"; expected PS256/)
  })

  it('refuses an SSA from another directory (another data dir), naming the expected kid', async () => {
    const { directory: foreign } = await openDirectory()
    const foreignKit = await foreign.onboard({})
    const err = await refusal(directory.verifySoftwareStatement(foreignKit.ssa))
    expect(err.error).toBe('invalid_software_statement')
    expect(err.message).toContain(`expected ${directory.publicJwks().keys[0]!.kid}`)
  })

  it('refuses an SSA signed by a TPP key with the directory kid', async () => {
    const tppKey = await importPKCS8(kit.signingKeyPem, 'PS256')
    const forged = await new SignJWT(decodeJwt(kit.ssa))
      .setProtectedHeader({ typ: 'JWT', alg: 'PS256', kid: directory.publicJwks().keys[0]!.kid })
      .sign(tppKey)
    expect((await refusal(directory.verifySoftwareStatement(forged))).message).toMatch(/signature does not verify/)
  })

  describe('claims, signed with the directory key', () => {
    let sign: (claims: Record<string, unknown>) => Promise<string>
    beforeAll(async () => {
      const jwk = JSON.parse(readFileSync(join(layout.directory, 'signing-key.json'), 'utf8')).jwk
      const { importJWK } = await import('jose')
      const key = await importJWK(jwk, 'PS256')
      sign = (claims) => new SignJWT(claims).setProtectedHeader({ typ: 'JWT', alg: 'PS256', kid: jwk.kid }).sign(key)
    })

    it('names a missing claim and what was expected', async () => {
      const { software_roles: _omit, ...claims } = decodeJwt(kit.ssa)
      const err = await refusal(directory.verifySoftwareStatement(await sign(claims)))
      expect(err.error).toBe('invalid_software_statement')
      expect(err.message).toBe(
        'software_statement has no software_roles claim; expected a non-empty array of roles (AISP, PISP)',
      )
    })

    it('names a wrong issuer', async () => {
      const err = await refusal(
        directory.verifySoftwareStatement(await sign({ ...decodeJwt(kit.ssa), iss: 'OpenBanking Ltd' })),
      )
      expect(err.message).toBe(`software_statement iss is "OpenBanking Ltd"; expected "${DIRECTORY_ISSUER}"`)
    })

    it('refuses software the directory does not know', async () => {
      const err = await refusal(
        directory.verifySoftwareStatement(await sign({ ...decodeJwt(kit.ssa), software_id: 'UnknownSoftware1234567' })),
      )
      expect(err.error).toBe('invalid_software_statement')
      expect(err.message).toMatch(/software_id UnknownSoftware1234567 is not known to the directory/)
    })

    it('refuses an org_id that is not the organisation of the software', async () => {
      const err = await refusal(
        directory.verifySoftwareStatement(await sign({ ...decodeJwt(kit.ssa), org_id: '0015800001ZZZZZZZZ' })),
      )
      expect(err.message).toMatch(new RegExp(`under organisation ${kit.orgId}`))
    })
  })

  it('answers unapproved_software_statement once the organisation is Revoked or Withdrawn, and accepts it again when Active', async () => {
    const { directory: own } = await openDirectory()
    const ownKit = await own.onboard({})
    expect(await own.setOrgStatus(ownKit.orgId, 'Revoked')).toBe(1)
    const err = await refusal(own.verifySoftwareStatement(ownKit.ssa))
    expect(err.error).toBe('unapproved_software_statement')
    expect(err.message).toMatch(new RegExp(`organisation ${ownKit.orgId} .* has org_status Revoked`))
    await own.setOrgStatus(ownKit.orgId, 'Withdrawn')
    expect((await refusal(own.verifySoftwareStatement(ownKit.ssa))).message).toMatch(/Withdrawn/)
    await own.setOrgStatus(ownKit.orgId, 'Active')
    expect((await own.verifySoftwareStatement(ownKit.ssa)).org_status).toBe('Active')
    expect(await own.setOrgStatus('0015800001NOSUCHOR', 'Revoked')).toBe(0)
  })

  it('serves an organisation JWKS holding the keys of its software, undefined for an unknown organisation', async () => {
    expect(await directory.orgJwks(kit.orgId)).toEqual(kit.jwks)
    expect(await directory.orgJwks('0015800001NOSUCHOR')).toBeUndefined()
  })

  it('reports a corrupt TPP file as an unreadable record instead of crashing', async () => {
    const { directory: own, layout: ownLayout, logs } = await openDirectory()
    const ownKit = await own.onboard({})
    writeFileSync(join(ownLayout.directory, 'tpps', `${ownKit.softwareId}.json`), '{ not json')
    const err = await refusal(own.verifySoftwareStatement(ownKit.ssa))
    expect(err.message).toMatch(/cannot read its record of software .* is not valid JSON/)
    expect(await own.software(ownKit.softwareId)).toBeUndefined()
    expect((await own.list()).map((r) => r.softwareId)).not.toContain(ownKit.softwareId)
    expect(logs.some((l) => l.includes(`${ownKit.softwareId}.json is not valid JSON`))).toBe(true)
  })

  it('refuses bad onboarding input before creating anything', async () => {
    const { directory: own, layout: ownLayout } = await openDirectory()
    await expect(own.onboard({ redirectUris: ['http://example.com/cb'] })).rejects.toThrow(/not a loopback IP/)
    expect(existsSync(join(ownLayout.directory, 'tpps')) ? readdirSync(join(ownLayout.directory, 'tpps')) : []).toEqual(
      [],
    )
  })

  it('lets a key of the same shape fail the kid check rather than the signature check (kid names the directory key)', async () => {
    const { privateKey } = await generateKeyPair('PS256', { extractable: true })
    const kid = await calculateJwkThumbprint(await exportJWK(privateKey))
    const ssa = await new SignJWT(decodeJwt(kit.ssa))
      .setProtectedHeader({ typ: 'JWT', alg: 'PS256', kid })
      .sign(privateKey)
    expect((await refusal(directory.verifySoftwareStatement(ssa))).message).toMatch(
      /header kid is ".+"; expected .+, the key of "OB Console Local Directory"/,
    )
  })
})

describe('matching a self-signed transport certificate to the registered one', () => {
  let directory: LocalDirectory
  let layout: DataDirLayout
  let kit: StarterKit
  /** What the sandbox reads of a presented certificate, for the fields the match uses. */
  const presented = (certPem: string, softwareId: string | undefined): PeerCertificate => {
    const id = certificateIdentity(certPem)
    return {
      trusted: false,
      selfSigned: true,
      pem: certPem,
      thumbprint: id.thumbprint,
      subject: {},
      subjectDn: '',
      spkiSha256: id.spkiSha256,
      certificateSubjectDn: id.subjectDn,
      softwareId,
    }
  }
  beforeAll(async () => {
    ;({ directory, layout } = await openDirectory())
    kit = await directory.onboard({ roles: ['AISP'] })
  })

  it('records subject DN, public-key hash and thumbprint of the issued transport certificate, and matches on them', async () => {
    const id = certificateIdentity(kit.transportCertPem)
    expect((await directory.software(kit.softwareId))?.transportCertificates).toEqual([id])
    expect(id.subjectDn).toMatch(new RegExp(`^CN=${kit.softwareId},OU=${kit.orgId},O=.+,C=GB$`))
    expect(await directory.selfSignedProblem(presented(kit.transportCertPem, kit.softwareId))).toBeUndefined()
  })

  it('names the cause when the CN, the organisation, the record, the subject, the key or the validity does not fit', async () => {
    const peer = presented(kit.transportCertPem, kit.softwareId)
    expect(await directory.selfSignedProblem({ ...peer, softwareId: undefined })).toMatch(/no CN/)
    expect(await directory.selfSignedProblem({ ...peer, softwareId: 'Unknown0000000000000000' })).toMatch(
      /is no software statement/,
    )
    expect(await directory.selfSignedProblem({ ...peer, certificateSubjectDn: 'CN=x,C=GB' })).toMatch(
      /its subject CN=x,C=GB differs/,
    )
    expect(await directory.selfSignedProblem({ ...peer, spkiSha256: 'AAAA' })).toMatch(/its public key is not the key/)
    expect(await directory.selfSignedProblem(peer, new Date('2100-01-01T00:00:00Z'))).toMatch(/not now/)
    const other = await directory.onboard({ roles: ['AISP'] })
    await directory.setOrgStatus(other.orgId, 'Revoked')
    expect(await directory.selfSignedProblem(presented(other.transportCertPem, other.softwareId))).toMatch(/is Revoked/)
  })

  it('a TPP recorded before subject and key were kept must use its CA-issued certificate', async () => {
    const file = join(layout.directory, 'tpps', `${kit.softwareId}.json`)
    const { transportCertificates: _dropped, ...old } = JSON.parse(readFileSync(file, 'utf8'))
    writeFileSync(file, JSON.stringify(old))
    const { directory: reopened } = await openDirectory(layout)
    expect(await reopened.selfSignedProblem(presented(kit.transportCertPem, kit.softwareId))).toMatch(
      /holds no public key .* use the CA-issued transport.pem/,
    )
  })
})
