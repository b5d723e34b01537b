import { describe, expect, it } from 'vitest'
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
