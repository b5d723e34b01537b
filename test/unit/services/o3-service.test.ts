import { describe, expect, it } from 'vitest'
import { maskPostman, readPostmanEnvironment } from '../../../src-main/services/o3-service.ts'

const download = {
  name: 'Local sandbox - Budget app',
  values: [
    { key: 'base_url', value: 'https://127.0.0.1:8443' },
    { key: 'auth_url', value: 'https://127.0.0.1:8444' },
    { key: 'client_id', value: 'c-1' },
    { key: 'client_secret', value: 'the-secret' },
    { key: 'aisBasePath', value: 'https://127.0.0.1:8443/open-banking/v4/aisp' },
    { key: 'pisBasePath', value: 'https://127.0.0.1:8443/open-banking/v4.0/pisp' },
  ],
}

describe('Postman environments', () => {
  it('masks secrets before they leave the main side', () => {
    const masked = maskPostman(download)
    expect(masked.values.find((v) => v.key === 'client_secret')?.value).toBe('(masked)')
    expect(masked.values.find((v) => v.key === 'client_id')?.value).toBe('c-1')
  })

  it('keeps the addresses named after tokens and masks the tokens themselves', () => {
    const masked = maskPostman({
      name: 'Local sandbox - Budget app',
      values: [
        { key: 'tokenEndpoint', value: 'https://127.0.0.1:8444/as/token.oauth2' },
        { key: 'registrationEndpoint', value: 'https://127.0.0.1:8443/open-banking/v3.3/register' },
        { key: 'access_token', value: 'eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiJjLTEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg' },
        { key: 'refreshToken', value: 'short-refresh' },
        { key: 'authorization', value: 'Bearer eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiJjLTEifQ.c2lnbmF0dXJlLW9m' },
      ],
    })
    const value = (key: string) => masked.values.find((v) => v.key === key)?.value
    expect(value('tokenEndpoint')).toBe('https://127.0.0.1:8444/as/token.oauth2')
    expect(value('registrationEndpoint')).toBe('https://127.0.0.1:8443/open-banking/v3.3/register')
    expect(value('access_token')).toBe('(masked)')
    expect(value('refreshToken')).toBe('(masked)')
    expect(value('authorization')).toMatch(/^Bearer eyJhbGci…[^…]{8}$/)
    expect(value('authorization')).not.toContain('c2lnbmF0dXJlLW9m')
  })

  it('reads addresses, API paths and the client from a download; a masked secret is not taken for a secret', () => {
    expect(readPostmanEnvironment(download, 'pm.json')).toEqual({
      baseUrl: 'https://127.0.0.1:8443',
      authUrl: 'https://127.0.0.1:8444',
      clientId: 'c-1',
      clientSecret: 'the-secret',
      name: 'Local sandbox - Budget app',
      aisPath: '/open-banking/v4/aisp',
      pisPath: '/open-banking/v4.0/pisp',
    })
    expect(readPostmanEnvironment(maskPostman(download), 'pm.json').clientSecret).toBeUndefined()
  })

  it('says what is missing in a file that is not a Postman environment, or lacks the addresses', () => {
    expect(() => readPostmanEnvironment({ foo: 1 }, 'x.json')).toThrow(/not a Postman environment/)
    expect(() => readPostmanEnvironment({ values: [{ key: 'client_id', value: 'c' }] }, 'x.json')).toThrow(
      /does not name the bank's addresses/,
    )
  })
})
