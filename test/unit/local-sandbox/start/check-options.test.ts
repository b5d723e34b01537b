import { describe, expect, it } from 'vitest'
import { FaultRuleError } from '../../../../src-main/local-sandbox/faults/fault-rules.ts'
import { checkStartOptions } from '../../../../src-main/local-sandbox/start/check-options.ts'

describe('checkStartOptions', () => {
  it('gives the defaults: explain mode, self-signed certificates allowed, no rules', () => {
    expect(checkStartOptions({})).toEqual({
      initialRules: undefined,
      tlsMode: 'explain',
      transportCertificates: 'self-signed-allowed',
    })
  })

  it('refuses each bad option with a sentence naming it', () => {
    expect(() => checkStartOptions({ adminToken: 'short' })).toThrow(/^the admin token cannot be used: /)
    expect(() => checkStartOptions({ publicHost: 'a b' })).toThrow(/^publicHost cannot be used: /)
    expect(() => checkStartOptions({ publicPort: 65534 })).toThrow(/^publicPort must be a whole number from 1 to 65533/)
    expect(() => checkStartOptions({ publicPort: 1.5 })).toThrow(RangeError)
    expect(() => checkStartOptions({ transportCertificates: 'any' as never })).toThrow(
      'transportCertificates must be ca-issued or self-signed-allowed, got "any"',
    )
    expect(() => checkStartOptions({ faults: [{ fault: { kind: 'no-such-kind' } }] as never })).toThrow(FaultRuleError)
  })

  it('keeps the rules given, checked', () => {
    const checked = checkStartOptions({ faults: [{ fault: { kind: 'reset' } }] as never, tlsMode: 'handshake' })
    expect(checked.tlsMode).toBe('handshake')
    expect(checked.initialRules).toHaveLength(1)
  })
})
