import { describe, expect, it } from 'vitest'
import { PRIVATE_KEY_REMOVED } from '../../../src-main/core/private-key-scan.ts'
import {
  FULLY_MASKED,
  isMasked,
  maskSecret,
  maskToken,
  secretRef,
  type SecretFound,
} from '../../../src-main/core/secret-mask.ts'
import { jwt, keys, masked, token } from './redact-fixture.ts'

describe('secret-mask', () => {
  it('masks long values as first 8 … last 8 and short ones whole', () => {
    expect(maskToken(token)).toBe(masked(token))
    expect(maskToken(jwt)).toBe(`eyJhbGci…${jwt.slice(-8)}`)
    expect(maskToken('short-secret')).toBe(FULLY_MASKED)
    expect(isMasked(masked(token))).toBe(true)
    expect(isMasked(FULLY_MASKED)).toBe(true)
    expect(isMasked(PRIVATE_KEY_REMOVED)).toBe(true)
    expect(isMasked(token)).toBe(false)
  })

  it('masks one value by its kind, shows a revealed one as it is, removes a private key whatever its kind, and reports each', () => {
    const found: SecretFound[] = []
    const ctx = { revealed: new Set([token, keys.rsaPem]), found: (s: SecretFound) => found.push(s) }
    expect(maskSecret(token, 'token', 'access_token', ctx)).toBe(token)
    expect(maskSecret('r'.repeat(40), 'code', 'code', ctx)).toBe(masked('r'.repeat(40)))
    expect(maskSecret('s3cr3t', 'credential', 'client_secret', ctx)).toBe(FULLY_MASKED)
    expect(maskSecret(keys.rsaPem, 'credential', 'note', ctx)).toBe(PRIVATE_KEY_REMOVED)
    expect(maskSecret('anything', 'private-key', 'keyPem', ctx)).toBe(PRIVATE_KEY_REMOVED)
    // Already masked: left alone, not reported again.
    expect(maskSecret(masked(token), 'token', 'access_token', ctx)).toBe(masked(token))
    expect(found.map((f) => [f.kind, f.name, f.shown === f.value, f.revealed])).toEqual([
      ['token', 'access_token', true, true],
      ['code', 'code', false, false],
      ['credential', 'client_secret', false, false],
      ['private-key', 'note', false, false],
      ['private-key', 'keyPem', false, false],
    ])
    // Without a context: masked, nothing revealed.
    expect(maskSecret(token, 'token', 'access_token')).toBe(masked(token))
  })

  it('gives each value a stable handle that tells nothing of it', () => {
    expect(secretRef(token)).toBe(secretRef(token))
    expect(secretRef(token)).not.toContain(token.slice(0, 6))
    expect(secretRef(token)).not.toBe(secretRef(jwt))
  })
})
