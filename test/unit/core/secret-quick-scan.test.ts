import { describe, expect, it } from 'vitest'
import { mayHoldSecret } from '../../../src-main/core/secret-quick-scan.ts'
import { keys } from './redact-fixture.ts'

describe('secret-quick-scan', () => {
  it('says "maybe" for every marker a redaction rule looks for', () => {
    const maybe = [
      '{"access_token": "t"}',
      '{"clientSecret":"s"}',
      '{"code":"c"}',
      '{"keys":[{"kty":"EC"}]}',
      'grant_type=authorization_code&code=abc',
      'client_assertion=eyJ',
      `note ${'PRIVATE'} KEY in a log line`,
      '{"a\\u0063cess_token":"t"}',
      'Authorization: Bearer abc',
      'sent Basic Y2xpZW50',
      'sent Negotiate YIIGhgYJ',
      'Digest username="a"',
      'authorization: bearer abc',
      Buffer.from(keys.rsaPem).toString('base64'),
      `blob ${keys.rsaDerB64}`,
    ]
    for (const text of maybe) expect(mayHoldSecret(text), text).toBe(true)
  })

  it('says "no" for texts no rule can change, names that only start like a secret included', () => {
    const no = [
      'a plain log line about page=2',
      '{"token_type":"Bearer","expires_in":3600}',
      '{"Data":{"Amount":{"Amount":"12.50","Currency":"GBP"},"Code":"DEB"}}',
      'https://bank.example/accounts?page=2&limit=50',
      '',
    ]
    for (const text of no) expect(mayHoldSecret(text), text).toBe(false)
  })
})
