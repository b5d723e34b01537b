import { afterEach, describe, expect, it, vi } from 'vitest'
import * as keys from '../../../src-main/plumbing/rsa-key-pairs.ts'
import { makeJourneyKeysAhead, onboardsNewTpp } from '../../../src-main/cli/journey-flags.ts'

afterEach(() => vi.restoreAllMocks())

describe('onboardsNewTpp', () => {
  it.each([
    ['onboard', { env: 'local' }, true],
    ['onboard', { env: 'local', 'data-dir': '/d' }, true],
    ['ais', { env: 'local' }, true],
    ['pis', { env: 'local' }, true],
    ['ais', { env: 'local', 'data-dir': '/d' }, false],
    ['ais', { env: 'local', client: 'c1' }, false],
    ['onboard', { env: 'local', client: 'c1' }, false],
    ['ais', { env: 'bank' }, false],
    ['ais', {}, false],
  ] as const)('%s %j -> %s', (kind, values, expected) => {
    expect(onboardsNewTpp(kind, values)).toBe(expected)
  })
})

describe('makeJourneyKeysAhead', () => {
  const spy = () => vi.spyOn(keys, 'makeRsaKeyPairsAhead').mockImplementation(() => undefined)

  it('starts the signing key and the transport key when the journey will onboard a TPP', () => {
    const made = spy()
    makeJourneyKeysAhead('ais', ['--env', 'local', '--headless', '--json'])
    expect(made.mock.calls).toEqual([['RSA-PSS'], ['RSASSA-PKCS1-v1_5']])
  })

  it.each([
    ['a saved environment', ['--env', 'bank', '--client', 'c1']],
    ['a named client', ['--env', 'local', '--client', 'c1']],
    ['a data directory that may hold a current client', ['--env', 'local', '--data-dir', '/tmp/x']],
    ['--help', ['--env', 'local', '--help']],
    ['a flag the command will refuse', ['--env', 'local', '--no-such-flag']],
    ['a positional the command will refuse', ['--env', 'local', 'extra']],
  ])('makes nothing for %s', (_what, argv) => {
    const made = spy()
    makeJourneyKeysAhead('pis', argv)
    expect(made).not.toHaveBeenCalled()
  })
})
