import { describe, expect, it } from 'vitest'
import { jwtRoleOf } from '../../../src-main/services/jwt-roles.ts'

const at = (location: string, method = 'POST', url = 'https://as.bank/token', claims?: Record<string, unknown>) =>
  jwtRoleOf({ location, method, url, ...(claims ? { claims } : {}) })

describe('jwtRoleOf', () => {
  it('names each role from where the JWT sat', () => {
    expect(at('request body', 'POST', 'https://as.bank/dynamic-client-registration/v3.2/register').role).toBe(
      'registration',
    )
    expect(at('request body', 'POST', 'https://as.bank/reg', { software_statement: 'x' }).role).toBe('registration')
    expect(at('request body › software_statement').role).toBe('software-statement')
    expect(at('response body software_statement').label).toMatch(/of the registration answer/)
    expect(at('request query request', 'GET', 'https://as.bank/authorize?request=x').role).toBe('request-object')
    expect(at('request body client_assertion').role).toBe('client-assertion')
    expect(at('response body id_token').label).toBe('ID token: the id_token of the token answer')
    expect(at('response location fragment id_token', 'GET').label).toMatch(/redirect back/)
    expect(at('request header x-jws-signature').role).toBe('tpp-jws-signature')
    expect(at('response header x-jws-signature').role).toBe('bank-jws-signature')
    expect(at('request header authorization', 'GET').role).toBe('access-token')
    expect(at('response body access_token').role).toBe('access-token')
  })

  it('does not take any JWT body for a registration, and says where an unknown one sat', () => {
    expect(at('request body', 'POST', 'https://rs.bank/other').role).toBe('unknown')
    expect(at('response body Data.token')).toEqual({
      role: 'unknown',
      label: 'a JWT of no known role: found at response body Data.token',
    })
  })
})
