import { describe, expect, it } from 'vitest'
import { headlessBlockingProfile } from '../../../src-main/contract/environments.ts'
import { checkHeadlessCapture } from '../../../src-main/services/headless-capture.ts'

describe('checkHeadlessCapture', () => {
  const local = { kind: 'local-sandbox' as const, name: 'Local sandbox' }
  const client = (profile?: string) => ({
    clientId: 'c-1',
    registration: profile ? { sandbox_profile: profile } : {},
  })

  it('refuses a headless capture on the local sandbox for a client whose profile sends the PSU to the login page', () => {
    expect(() => checkHeadlessCapture('headless', local, client('strict'))).toThrow(
      /Client c-1 cannot authorise headless on Local sandbox/,
    )
    expect(() => checkHeadlessCapture('headless', local, client('permissive'))).toThrow(/"permissive-headless"/)
  })

  it('lets a headless client, another capture, or a bank that alone knows go on', () => {
    expect(() => checkHeadlessCapture('headless', local, client('strict-headless'))).not.toThrow()
    expect(() => checkHeadlessCapture('loopback', local, client('strict'))).not.toThrow()
    expect(() => checkHeadlessCapture('headless', local, client())).not.toThrow()
    expect(() =>
      checkHeadlessCapture('headless', { kind: 'bank-sandbox', name: 'Bank sandbox' }, client('strict')),
    ).not.toThrow()
  })
})

describe('headlessBlockingProfile (the rule the flow form and the check share)', () => {
  const registered = (registration: Record<string, unknown>) => ({ registration })
  it.each([
    ['local-sandbox', { sandbox_profile: 'strict' }, 'strict'],
    ['local-sandbox', { sandbox_profile: 'permissive' }, 'permissive'],
    ['local-sandbox', { sandbox_profile: 'strict-headless' }, undefined],
    ['local-sandbox', { sandbox_profile: 7 }, undefined],
    ['local-sandbox', {}, undefined],
    ['bank-sandbox', { sandbox_profile: 'strict' }, undefined],
    ['production', { sandbox_profile: 'strict' }, undefined],
  ] as const)('%s %j -> %s', (kind, registration, expected) => {
    expect(headlessBlockingProfile(kind, registered(registration))).toBe(expected)
  })
})
