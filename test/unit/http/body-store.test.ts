import { describe, expect, it } from 'vitest'
import { BodyStore } from '../../../src-main/http/body-store.ts'

const KIB = 1024
/** A body of `n` KiB, its bytes depending on `seed`, so a mix-up between bodies shows. */
const body = (n: number, seed: number) =>
  Buffer.from(Array.from({ length: n * KIB }, (_, i) => String.fromCharCode(97 + ((i + seed) % 26))).join(''))

describe('BodyStore', () => {
  it('keeps a body as received, cut at the cap with its size, and nothing for an empty one', () => {
    const store = new BodyStore(4 * KIB, 1024 * KIB, 1024 * KIB)
    const b = body(10, 1)
    const kept = store.store(b, 'application/json')!
    expect(kept).toMatchObject({ size: 10 * KIB, length: 4 * KIB, truncated: true, contentType: 'application/json' })
    expect(store.bytesOf(kept)!.equals(b.subarray(0, 4 * KIB))).toBe(true)
    expect(store.store(Buffer.alloc(0), undefined)).toBeUndefined()
    expect(store.stats()).toMatchObject({ rawBodies: 1, rawBytes: 4 * KIB, compressedBodies: 0 })
  })

  it('over the raw budget, compresses the oldest bodies on a later turn and inflates them byte for byte', async () => {
    const store = new BodyStore(64 * KIB, 40 * KIB, 1024 * KIB)
    const bodies = [1, 2, 3, 4, 5].map((seed) => body(10, seed))
    const kept = bodies.map((b) => store.store(b, 'text/plain')!)
    store.compressIfOver()
    // Nothing inside the call that went over the budget.
    expect(store.stats()).toMatchObject({ rawBodies: 5, compressing: true })
    await store.idle()
    const stats = store.stats()
    // Down to 7/8 of the budget: the two oldest went into a pack.
    expect(stats).toMatchObject({ rawBodies: 3, compressedBodies: 2, compressing: false })
    expect(stats.rawBytes).toBeLessThanOrEqual(35 * KIB)
    expect(stats.compressedBytes).toBeLessThan(2 * 10 * KIB)
    kept.forEach((k, i) => expect(store.bytesOf(k)!.equals(bodies[i]!)).toBe(true))
  })

  it('over the compressed budget, drops the oldest packs, says why, and counts them as dropped', async () => {
    const store = new BodyStore(64 * KIB, 0, 0)
    const kept = store.store(body(8, 3), undefined)!
    store.compressIfOver()
    await store.idle()
    expect(store.bytesOf(kept)).toBeUndefined()
    expect(store.stats()).toMatchObject({ rawBodies: 0, compressedBodies: 0, droppedBodies: 1 })
    expect(store.droppedReason()).toMatch(/^no longer kept: .*newest 0 KiB of bodies as received.*re-run the step/)
  })

  it('stops counting the bodies the log forgets, raw, compressed or dropped, once each', async () => {
    const store = new BodyStore(64 * KIB, 10 * KIB, 1024 * KIB)
    const old = store.store(body(8, 1), undefined)!
    const young = store.store(body(8, 2), undefined)!
    store.compressIfOver()
    await store.idle()
    expect(store.stats()).toMatchObject({ rawBodies: 1, compressedBodies: 1 })
    store.forget(old, young, undefined)
    store.forget(old)
    expect(store.stats()).toMatchObject({
      rawBodies: 0,
      rawBytes: 0,
      compressedBodies: 0,
      compressedBytes: 0,
      droppedBodies: 0,
    })
    store.clear()
    expect(store.stats()).toMatchObject({ rawBodies: 0, compressing: false })
  })
})
