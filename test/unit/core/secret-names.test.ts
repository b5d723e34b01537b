import { describe, expect, it } from 'vitest'
import { isSecretName, isSecretParam } from '../../../src-main/core/secret-names.ts'
import { secretKindOfName, secretKindOfParam } from '../../../src-main/core/secret-names.ts'

describe('secret-names', () => {
  it('knows secret names exactly and by their ending, and leaves look-alikes alone', () => {
    expect(secretKindOfName('registrationAccessToken')).toBe('token')
    expect(secretKindOfName('transportKeyPem')).toBe('private-key')
    expect(secretKindOfName('token_endpoint')).toBeUndefined()
    expect(secretKindOfName('caBundlePem')).toBeUndefined()
    expect(secretKindOfName('client_secret')).toBe('credential')
    expect(secretKindOfName('client_assertion')).toBe('token')
    expect(secretKindOfName('authorization_code')).toBe('code')
    expect(secretKindOfName('device_token')).toBe('token')
    expect(secretKindOfName('psuPassword')).toBe('credential')
    expect(secretKindOfName('signing_private_key')).toBe('private-key')
    expect(secretKindOfName('tokenType')).toBeUndefined()
    expect(secretKindOfName('toString')).toBeUndefined()
    expect(isSecretName('refresh_token')).toBe(true)
    expect(isSecretName('token_type')).toBe(false)
  })

  it('takes `code` as a secret parameter (the authorisation code) but not as a JSON member (an error code)', () => {
    expect(isSecretName('code')).toBe(false)
    expect(isSecretParam('code')).toBe(true)
    expect(secretKindOfParam('code')).toBe('code')
    expect(secretKindOfParam('id_token')).toBe('token')
    expect(secretKindOfParam('state')).toBeUndefined()
    expect(isSecretParam('state')).toBe(false)
  })
})
