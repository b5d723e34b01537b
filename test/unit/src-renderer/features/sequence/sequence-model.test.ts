import { describe, expect, it } from 'vitest'
import { buildSequence, classify } from '../../../../../src-renderer/features/sequence/sequence-model.ts'
import { flow, localEnv, step, summary } from '../../support/fixtures.ts'

const DIR = 'https://127.0.0.1:8446'

describe('sequence model', () => {
  it('puts exchanges on lanes by URL and label', () => {
    expect(classify(summary('x1', { url: `${DIR}/tpps/1/ssa`, path: '/tpps/1/ssa' }), localEnv, DIR)).toEqual({
      from: 'tpp',
      to: 'directory',
    })
    expect(
      classify(summary('x2', { method: 'POST', url: 'https://127.0.0.1:8443/token', path: '/token' }), localEnv, DIR),
    ).toEqual({ from: 'tpp', to: 'as' })
    expect(classify(summary('x3'), localEnv, DIR)).toEqual({ from: 'tpp', to: 'rs' })
    expect(
      classify(
        summary('x4', { url: 'https://127.0.0.1:8444/auth?x=1', path: '/auth', label: 'authorisation (headless) 1' }),
        localEnv,
        DIR,
      ),
    ).toEqual({ from: 'psu', to: 'as' })
    // Without the environment, the v4 resource paths still go to the resource server.
    expect(
      classify(summary('x5', { path: '/open-banking/v4.0/pisp/domestic-payments' }), undefined, undefined).to,
    ).toBe('rs')
  })

  it('orders exchanges and the PSU’s part by time, marks failures, and keeps only the flow’s exchanges', () => {
    const f = flow('f1', 'ais', [
      step('authorisation-url', 'done', { summary: 'URL to 127.0.0.1:8444' }),
      step('capture', 'done', { startedAt: '2026-11-22T10:00:02.500Z', ms: 1000, summary: 'code received (loopback)' }),
    ])
    const arrows = buildSequence(
      f,
      [
        summary('e1', {
          flowId: 'f1',
          method: 'POST',
          path: '/token',
          url: 'https://127.0.0.1:8443/token',
          status: 200,
        }),
        summary('e2', { flowId: 'f1', status: 403 }),
        summary('e4', { flowId: 'f1', status: undefined, errorCode: 'TRANSPORT_TIMEOUT' }),
        summary('e5', { flowId: 'other' }),
      ],
      localEnv,
      DIR,
    )
    expect(arrows.map((a) => [a.from, a.to, a.exchangeId ?? a.label, a.failed])).toEqual([
      ['tpp', 'as', 'e1', false],
      ['tpp', 'rs', 'e2', true],
      ['tpp', 'psu', "to the bank's authorisation page (request object)", false],
      ['psu', 'tpp', 'redirect back: code received (loopback)', false],
      ['tpp', 'rs', 'e4', true],
    ])
    expect(arrows[1]!.answer).toBe('403')
    expect(arrows[4]!.answer).toBe('TRANSPORT_TIMEOUT')
  })

  it('draws the deeplink to the bank app, and no return while the PSU has not come back', () => {
    const f = flow('f2', 'pis', [
      step('authorisation-url', 'done', { summary: 'app deeplink ready' }),
      step('capture', 'running', { startedAt: '2026-11-22T10:00:01.000Z' }),
    ])
    const arrows = buildSequence(f, [], localEnv, DIR)
    expect(arrows).toHaveLength(1)
    expect(arrows[0]).toMatchObject({
      from: 'tpp',
      to: 'psu',
      label: 'deeplink to the bank app (authorisation request)',
    })
  })

  it('shortens ids in the request line', () => {
    const id = 'aac-0123abcd-1111-2222-3333-444455556666'.slice(4)
    const [arrow] = buildSequence(
      flow('f3', 'ais', []),
      [summary('e1', { flowId: 'f3', path: `/open-banking/v4.0/aisp/accounts/${id}/balances` })],
      localEnv,
      DIR,
    )
    expect(arrow!.label).toBe('GET /open-banking/v4.0/aisp/accounts/0123abcd…/balances')
  })
})
