// Test PKI generated at run time: an Open Banking-like root and issuing CA, a transport certificate
// (CN = software id, OU = org id), and certificates from an unrelated CA. Nothing is committed.
import {
  createSelfSignedCertificate,
  issueCertificate,
  type GeneratedCertificate,
} from '../../../src-main/certificates/generate.ts'

export interface TestPki {
  root: GeneratedCertificate
  issuing: GeneratedCertificate
  transport: GeneratedCertificate
  otherRoot: GeneratedCertificate
  otherLeaf: GeneratedCertificate
}

export const ORG_ID = '0015800001041RHAAY'
export const SOFTWARE_ID = 'HQuZPIt3ipkh33Uxytox1E'

let cached: Promise<TestPki> | undefined

/** One PKI per test file (generation takes a few hundred milliseconds with RSA). */
export function testPki(): Promise<TestPki> {
  cached ??= (async () => {
    const root = await createSelfSignedCertificate({
      subject: 'CN=Test Root CA, O=Test Ecosystem, C=GB',
      ca: { pathLength: 1 },
      validDays: 3650,
    })
    const issuing = await issueCertificate(root, {
      subject: 'CN=Test Issuing CA, O=Test Ecosystem, C=GB',
      ca: { pathLength: 0 },
      validDays: 1825,
    })
    const transport = await issueCertificate(issuing, {
      subject: `CN=${SOFTWARE_ID}, OU=${ORG_ID}, O=Example TPP Ltd, C=GB`,
      extendedKeyUsages: ['clientAuth'],
      validDays: 365,
    })
    const otherRoot = await createSelfSignedCertificate({
      subject: 'CN=Other Root CA',
      ca: { pathLength: 0 },
      keyType: 'EC-P256',
    })
    const otherLeaf = await issueCertificate(otherRoot, {
      subject: 'CN=other-leaf',
      keyType: 'EC-P256',
      extendedKeyUsages: ['clientAuth'],
    })
    return { root, issuing, transport, otherRoot, otherLeaf }
  })()
  return cached
}

/** A compact JWT with the given claims and a dummy signature (for parsers that do not verify). */
export function unsignedJwt(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'PS256', typ: 'JWT' },
): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
  return `${b64(header)}.${b64(claims)}.c2lnbmF0dXJl`
}

export function ssaClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: 'OpenBanking Ltd',
    iat: 1767225600,
    jti: 'j1',
    software_id: SOFTWARE_ID,
    software_client_name: 'Example App',
    software_mode: 'Test',
    software_roles: ['AISP', 'PISP'],
    software_redirect_uris: ['https://tpp.example/callback'],
    software_jwks_endpoint: `https://keystore.example/${ORG_ID}/${SOFTWARE_ID}.jwks`,
    org_id: ORG_ID,
    org_name: 'Example TPP Ltd',
    org_status: 'Active',
    ...overrides,
  }
}
