import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { FlowProgress, FlowState } from '../../../src-main/contract/flows.ts'
import { ConsentsService } from '../../../src-main/services/consents-service.ts'
import { createConsoleStateStore } from '../../../src-main/services/persistence/console-state-store.ts'

const dir = mkdtempSync(join(tmpdir(), 'ob-consents-seen-'))
const stores: Array<{ flushed(): Promise<void> }> = []
// The state is written behind each change: the folder goes once every write has ended.
afterAll(async () => {
  await Promise.all(stores.map((s) => s.flushed()))
  rmSync(dir, { recursive: true, force: true })
})

const flow = (id: string, kind: 'ais' | 'pis') => ({ id, kind, clientId: 'c-1', environmentId: 'env' }) as FlowState
const step = (id: string, status: 'done' | 'failed', extra: object = {}) =>
  ({ flowId: 'f', step: { id, status, exchangeIds: [], checks: [], ...extra } }) as unknown as FlowProgress

function service() {
  const state = createConsoleStateStore(join(dir, `${Math.random()}.json`))
  stores.push(state)
  const clock = { now: () => new Date('2026-11-27T09:00:00Z') }
  const consents = new ConsentsService(
    state,
    {} as never,
    {} as never,
    (() => undefined) as never,
    (() => undefined) as never,
    clock as never,
  )
  return { consents, status: () => state.read().consents.map((c) => c.status) }
}

describe('the consents list: the status the flow last saw', () => {
  it('AWAU when created, AUTH once the code is exchanged, COND once the payment is made', () => {
    const { consents, status } = service()
    const f = flow('f-pis', 'pis')
    consents.onProgress(f, step('payment-consent', 'done', { output: { consentId: 'sdp-1', status: 'AWAU' } }))
    expect(status()).toEqual(['AWAU'])
    consents.onProgress(f, step('code-exchange', 'done'))
    expect(status()).toEqual(['AUTH'])
    consents.onProgress(f, step('domestic-payment', 'done'))
    expect(status()).toEqual(['COND'])
  })

  it('RJCT when the PSU refused it (access_denied came back); another failed return changes nothing', () => {
    const { consents, status } = service()
    const f = flow('f-ais', 'ais')
    consents.onProgress(f, step('consent', 'done', { output: { consentId: 'aac-1', status: 'AWAU' } }))
    const returned = (error: string) =>
      step('capture', 'failed', { error: { code: 'AUTH_RETURN_ERROR', details: { error } } })
    consents.onProgress(f, returned('server_error'))
    expect(status()).toEqual(['AWAU'])
    consents.onProgress(f, returned('access_denied'))
    expect(status()).toEqual(['RJCT'])
  })
})
