import { describe, expect, it } from 'vitest'
import type { SecretItemDto } from '../../../../src-main/contract/exchange.ts'
import { REVEAL_MS, revealedRefs, scopeKey, withRevealed } from '../../../../src-renderer/store/reveal-slice.ts'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fail, fakeApi, manualTimers } from '../support/fake-api.ts'

const item = (ref: string, revealable = true): SecretItemDto => ({
  ref,
  kind: revealable ? 'token' : 'private-key',
  name: ref,
  where: 'response body',
  shown: 'abcdefgh…12345678',
  revealed: false,
  revealable,
})

function setup() {
  const timers = manualTimers()
  const delays: number[] = []
  const counted = {
    setTimeout(fn: () => void, ms: number) {
      delays.push(ms)
      return timers.setTimeout(fn)
    },
    clearTimeout: (id: unknown) => timers.clearTimeout(id),
  }
  const api = fakeApi({
    'exchanges.get': ({ id, reveal }: { id: string; reveal?: string[] }) =>
      reveal ? { id, shownWith: reveal } : { id },
    'secrets.reveal': ({ ref }: { ref: string }) =>
      ref === 'key' ? fail('INVALID_INPUT', 'private key') : { value: `value-of-${ref}`, item: item(ref) },
  })
  const store = createAppStore(api, counted)
  return { store, api, timers, delays }
}

describe('reveal slice', () => {
  it('keeps a revealed value in this window for one scope, masks it again on demand, and expires it', async () => {
    const { store, timers, delays } = setup()
    const s = () => store.getState()
    expect(await s().reveal({ flowId: 'f1' }, 'a')).toBe('value-of-a')
    await s().reveal({ flowId: 'f1' }, 'b')
    await s().reveal({ flowId: 'f2' }, 'a')
    expect(delays).toEqual([REVEAL_MS, REVEAL_MS, REVEAL_MS])
    expect(REVEAL_MS).toBe(5 * 60_000)
    expect(revealedRefs(s().revealed, { flowId: 'f1' })).toEqual(['a', 'b'])
    expect(s().revealed['flow:f1']!.a!.until).toBeGreaterThan(Date.now() + REVEAL_MS - 5_000)
    // Mask again: that one value only; the other scope keeps its own.
    s().maskAgain({ flowId: 'f1' }, 'a')
    expect(revealedRefs(s().revealed, { flowId: 'f1' })).toEqual(['b'])
    expect(revealedRefs(s().revealed, { flowId: 'f2' })).toEqual(['a'])
    expect(timers.size).toBe(2)
    // The expiry masks what is left.
    timers.flush()
    expect(s().revealed).toEqual({})
    // A refusal keeps nothing and says why.
    expect(await s().reveal({ flowId: 'f1' }, 'key')).toBeUndefined()
    expect(s().ops['secrets.reveal:f1']?.error?.code).toBe('INVALID_INPUT')
    expect(s().revealed).toEqual({})
  })

  it('shows a revealed value in its list item, never for a private key', () => {
    const values = { a: { value: 'whole', until: 0 }, key: { value: 'never', until: 0 } }
    expect(withRevealed([item('a'), item('b'), item('key', false)], values)).toEqual([
      { ...item('a'), shown: 'whole', revealed: true },
      item('b'),
      item('key', false),
    ])
    expect(withRevealed(undefined, values)).toBeUndefined()
    expect(scopeKey({ exchangeId: 'x' })).toBe('exchange:x')
  })

  it("in the inspector: one view asked with the exchange's revealed refs, masked at once on Mask again, another exchange or expiry", async () => {
    const { store, api, timers } = setup()
    const s = () => store.getState()
    await s().selectExchange('e1')
    await s().revealSecret('a')
    await s().revealSecret('b')
    expect(api.callsOf('exchanges.get')).toEqual([
      { id: 'e1' },
      { id: 'e1', reveal: ['a'] },
      { id: 'e1', reveal: ['a', 'b'] },
    ])
    expect(s().inspector.revealedView).toEqual({
      id: 'e1',
      refs: ['a', 'b'],
      view: { id: 'e1', shownWith: ['a', 'b'] },
    })
    // Mask again: the view showing both goes at once (before any answer), then one with what is left comes.
    const masking = api.calls.length
    s().maskSecretAgain('a')
    expect(s().inspector.revealedView).toBeUndefined()
    await new Promise((r) => setTimeout(r, 0))
    expect(api.calls.slice(masking).map((c) => c.input)).toEqual([{ id: 'e1', reveal: ['b'] }])
    expect(s().inspector.revealedView?.refs).toEqual(['b'])
    // Another exchange: what was revealed in e1 is masked, its timer gone.
    await s().selectExchange('e2')
    expect(s().revealed).toEqual({})
    expect(s().inspector.revealedView).toBeUndefined()
    expect(timers.size).toBe(0)
    await s().selectExchange('e1')
    expect(s().inspector.revealedView).toBeUndefined()
    expect(api.callsOf('exchanges.get').at(-1)).toEqual({ id: 'e1' })
    // Revealed again, then left to expire.
    await s().revealSecret('a')
    expect(s().inspector.revealedView?.refs).toEqual(['a'])
    timers.flush()
    expect(s().revealed).toEqual({})
    expect(s().inspector.revealedView).toBeUndefined()
  })
})
