import { X509Certificate } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { createDirectory } from '../../../../src-main/local-sandbox/directory/directory.ts'
import {
  STARTER_KIT_FILES,
  existingKitFiles,
  subjectDn,
  writeStarterKit,
} from '../../../../src-main/local-sandbox/directory/starter-kit-files.ts'
import type { StarterKit } from '../../../../src-main/local-sandbox/directory/types.ts'
import { loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'
import type { EcosystemPki } from '../../../../src-main/local-sandbox/pki/types.ts'

const ADDRESSES = {
  baseUrl: 'https://127.0.0.1:18443',
  authUrl: 'https://127.0.0.1:18444',
  directoryUrl: 'https://127.0.0.1:18445',
}

describe('writeStarterKit', () => {
  const root = mkdtempSync(join(tmpdir(), 'ob-kit-test-'))
  let kit: StarterKit
  let pki: EcosystemPki
  const extra = () => ({
    rootCaPem: pki.rootCaPem,
    issuingCaPem: pki.issuingCaPem,
    issuer: 'OB Console Local Directory',
    addresses: ADDRESSES,
  })

  beforeAll(async () => {
    const layout = dataDirLayout(join(root, 'data'))
    pki = await loadOrCreatePki(layout)
    const directory = await createDirectory({
      addresses: ADDRESSES,
      layout,
      clock: new SandboxClock(),
      pki,
      log: () => {},
    })
    kit = await directory.onboard({ orgName: 'Kit Org', roles: ['PISP'] })
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('writes every file, private keys mode 0600, and a manifest naming them', () => {
    const dir = join(root, 'kit1')
    const { manifest } = writeStarterKit(dir, kit, extra())
    expect(readdirSync(dir).sort()).toEqual(Object.values(STARTER_KIT_FILES).sort())
    expect(statSync(join(dir, 'transport.key')).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'signing.key')).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(readFileSync(join(dir, 'transport.pem'), 'utf8')).toBe(kit.transportCertPem)
    expect(readFileSync(join(dir, 'transport.key'), 'utf8')).toBe(kit.transportKeyPem)
    expect(readFileSync(join(dir, 'ssa.jwt'), 'utf8').trim()).toBe(kit.ssa)
    expect(JSON.parse(readFileSync(join(dir, 'signing.jwks.json'), 'utf8'))).toEqual(kit.jwks)
    expect(readFileSync(join(dir, 'signing.jwks.json'), 'utf8')).not.toMatch(/"d"/)
    expect(readFileSync(join(dir, 'ca-bundle.pem'), 'utf8')).toBe(pki.rootCaPem + pki.issuingCaPem)
    expect(readFileSync(join(dir, 'root-ca.pem'), 'utf8')).toBe(pki.rootCaPem)
    expect(readFileSync(join(dir, 'issuing-ca.pem'), 'utf8')).toBe(pki.issuingCaPem)
    const onDisk = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
    expect(onDisk).toEqual(manifest)
    expect(manifest).toMatchObject({
      orgId: kit.orgId,
      softwareId: kit.softwareId,
      signingKid: kit.signingKid,
      roles: ['PISP'],
      redirectUris: kit.redirectUris,
      jwksEndpoint: kit.jwksEndpoint,
      files: STARTER_KIT_FILES,
      addresses: { ...ADDRESSES, discoveryUrl: `${ADDRESSES.authUrl}/.well-known/openid-configuration` },
    })
    expect(manifest.transportCertificate.subjectDn).toBe(`CN=${kit.softwareId},OU=${kit.orgId},O=Kit Org,C=GB`)
    expect(new Date(manifest.transportCertificate.notAfter).getTime()).toBe(
      new Date(new X509Certificate(kit.transportCertPem).validTo).getTime(),
    )
  })

  it('refuses a directory that already holds a kit and changes nothing in it', () => {
    const dir = join(root, 'kit2')
    mkdirSync(dir)
    writeFileSync(join(dir, 'signing.key'), 'precious')
    expect(existingKitFiles(dir)).toEqual(['signing.key'])
    expect(() => writeStarterKit(dir, kit, extra())).toThrow(
      /already holds a starter kit \(signing\.key\); keys are never overwritten/,
    )
    expect(readdirSync(dir)).toEqual(['signing.key'])
    expect(readFileSync(join(dir, 'signing.key'), 'utf8')).toBe('precious')
  })

  it('writes into a non-empty directory that holds no kit', () => {
    const dir = join(root, 'kit3')
    mkdirSync(dir)
    writeFileSync(join(dir, 'README.md'), 'mine')
    writeStarterKit(dir, kit, extra())
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('mine')
    expect(existingKitFiles(dir)).toHaveLength(Object.keys(STARTER_KIT_FILES).length)
  })

  it('renders a subject DN with escaped commas, CN first', async () => {
    const cert = await pki.issueTransportCertificate({ orgId: 'ORG1', orgName: 'A, B', softwareId: 'S1' })
    expect(subjectDn(cert.certPem)).toBe('CN=S1,OU=ORG1,O=A\\, B,C=GB')
  })
})
