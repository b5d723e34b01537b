import { describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { certificateSummary, defaultTrust, originOf } from '../../../src-main/http/environment.ts'

describe('environment', () => {
  it('gives each kind its trust: exact CA bundle, verification off, system CAs', () => {
    expect(defaultTrust('local-sandbox', 'PEM')).toEqual({ mode: 'ca-bundle', caPem: 'PEM' })
    expect(defaultTrust('bank-sandbox')).toEqual({ mode: 'off' })
    expect(defaultTrust('production')).toEqual({ mode: 'system' })
    expect(defaultTrust('production', 'PEM')).toEqual({ mode: 'system', extraCaPem: 'PEM' })
    try {
      defaultTrust('local-sandbox')
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
      expect(isAppError(err) && err.cause).toMatch(/never by turning verification off/)
    }
  })

  it('normalises origins with explicit ports and refuses relative or non-HTTP URLs', () => {
    expect(originOf('https://Bank.Example/open-banking?x=1')).toBe('https://bank.example:443')
    expect(originOf('https://127.0.0.1:8443/token')).toBe('https://127.0.0.1:8443')
    expect(originOf('http://localhost/x')).toBe('http://localhost:80')
    for (const bad of ['/token', 'ftp://x/y']) {
      try {
        originOf(bad)
        expect.unreachable()
      } catch (err) {
        expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
      }
    }
  })

  it('summarises a certificate as RFC 4514 subject and x5t#S256', async () => {
    const c = await createSelfSignedCertificate({ subject: 'CN=soft, OU=org, O=TPP, C=GB', keyType: 'EC-P256' })
    const s = certificateSummary(c.certPem)
    expect(s.subjectDn).toBe('CN=soft,OU=org,O=TPP,C=GB')
    expect(s.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it("escapes the subject's values as RFC 4514 says (an organisation name with a comma stays one value)", async () => {
    const c = await createSelfSignedCertificate({
      subject: [{ C: ['GB'] }, { O: ['Acme, Ltd'] }, { OU: ['0015800001041RHAAY'] }, { CN: ['soft+1;x'] }],
      keyType: 'EC-P256',
    })
    expect(certificateSummary(c.certPem).subjectDn).toBe('CN=soft\\+1\\;x,OU=0015800001041RHAAY,O=Acme\\, Ltd,C=GB')
  })
})
