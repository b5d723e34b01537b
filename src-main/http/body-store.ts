import { promisify } from 'node:util'
import { gunzipSync, gzip } from 'node:zlib'

/**
 * Consecutive bodies compressed together (gzip, on the libuv threadpool): one zlib call per ~1 MiB, and
 * similar bodies (pages of one list) compress better side by side. `gz` goes when the pack is dropped
 * (the compressed budget is full) or when every body in it left the log.
 */
interface Pack {
  gz?: Buffer
  /** Bodies of the log still in it. */
  live: number
  dropped: boolean
}

/** A body as the store keeps it (the log's records point at it). */
export interface StoredBody {
  size: number
  truncated: boolean
  contentType?: string
  /** Bytes kept: the whole body, or its first `bodyCap` bytes. */
  length: number
  /** The bytes as received, while the body is among the newest (and while it is being compressed). */
  raw?: Buffer
  /** Once compressed: its pack and where it starts in the pack's inflated bytes. */
  pack?: Pack
  offset?: number
  /** It left the log with its exchange (capacity, clear): it counts in no budget any more. */
  gone?: boolean
}

/** Where the log's body bytes are (see `bodyStats`). */
export interface BodyStats {
  /** Bytes of bodies kept as received (bodies being compressed included). */
  rawBytes: number
  rawBodies: number
  /** Bytes of compressed packs kept, and the bodies in them. */
  compressedBytes: number
  compressedBodies: number
  /** Bodies of exchanges still in the log that are no longer kept. */
  droppedBodies: number
  /** True while a batch is being compressed. */
  compressing: boolean
}

const MIB = 1024 * 1024
/** Raw bytes of one compressed pack (a larger body is a pack alone). */
const PACK_BYTES = MIB
const gzipAsync = promisify(gzip)

const sizeText = (bytes: number) =>
  bytes < MIB ? `${Math.round(bytes / 1024)} KiB` : `${+(bytes / MIB).toFixed(1)} MiB`

/**
 * The bodies of the exchange log under two byte budgets: the newest `rawBodyBudget` bytes as received;
 * older ones joined into ~1 MiB packs and gzipped on the libuv threadpool, in batches that start on a
 * later turn (never inside a record); inflated again when viewed. Past `compressedBodyBudget` of
 * compressed bytes the oldest packs are dropped: their bodies' views say they are no longer kept.
 */
export class BodyStore {
  /** Raw bodies, oldest first (from `rawHead` on; bodies compressed or gone are skipped). */
  private rawQueue: StoredBody[] = []
  private rawHead = 0
  private rawBytes = 0
  private rawBodies = 0
  /** Compressed packs, oldest first (packs already freed are skipped). */
  private packs: Pack[] = []
  private packHead = 0
  private compressedBytes = 0
  private compressedBodies = 0
  private droppedBodies = 0
  private compressing: Promise<void> | undefined
  /** The last pack inflated (small packs only), for views of neighbours and `list`. */
  private inflated: { pack: Pack; bytes: Buffer } | undefined

  constructor(
    readonly bodyCap: number,
    readonly rawBodyBudget: number,
    readonly compressedBodyBudget: number,
  ) {}

  /**
   * Keeps a body (cut at `bodyCap`), as received; undefined for none. `fullSize`: the whole body's size
   * when `bytes` is only its start (then it is kept as cut). Call `compressIfOver()` once the log has let
   * go of what it drops.
   */
  store(bytes: Uint8Array | undefined, contentType: string | undefined, fullSize?: number): StoredBody | undefined {
    if (!bytes || bytes.length === 0) return undefined
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)
    // A cut body is copied, so the log holds (and counts) only the bytes it keeps.
    const raw = buf.length > this.bodyCap ? Buffer.from(buf.subarray(0, this.bodyCap)) : buf
    const size = fullSize !== undefined && fullSize > buf.length ? fullSize : buf.length
    const body: StoredBody = { raw, length: raw.length, size, truncated: size > raw.length }
    if (contentType) body.contentType = contentType
    this.rawQueue.push(body)
    this.rawBytes += raw.length
    this.rawBodies++
    return body
  }

  /** Bodies of an exchange that left the log stop counting in the budgets. */
  forget(...bodies: Array<StoredBody | undefined>): void {
    for (const body of bodies) {
      if (!body || body.gone) continue
      body.gone = true
      if (body.raw) {
        this.rawBytes -= body.length
        this.rawBodies--
        body.raw = undefined
      } else if (body.pack?.gz) {
        this.compressedBodies--
        if (--body.pack.live === 0) this.freePack(body.pack)
      } else if (body.pack?.dropped) {
        this.droppedBodies--
      }
    }
  }

  /** Lets go of the queues' heads that left the log (exchanges leave oldest first, so they are at the head). */
  trimQueues(): void {
    while (this.rawHead < this.rawQueue.length && !this.rawQueue[this.rawHead]!.raw) this.rawHead++
    if (this.rawHead > 1024 && this.rawHead * 2 > this.rawQueue.length) {
      this.rawQueue = this.rawQueue.slice(this.rawHead)
      this.rawHead = 0
    }
    while (this.packHead < this.packs.length && !this.packs[this.packHead]!.gz) this.packHead++
    if (this.packHead > 256 && this.packHead * 2 > this.packs.length) {
      this.packs = this.packs.slice(this.packHead)
      this.packHead = 0
    }
  }

  private freePack(pack: Pack): void {
    if (!pack.gz) return
    this.compressedBytes -= pack.gz.length
    pack.gz = undefined
    if (this.inflated?.pack === pack) this.inflated = undefined
  }

  /**
   * Over the raw budget: compresses the oldest raw bodies, a batch at a time (down to 7/8 of the
   * budget), one pack after another on the threadpool; the event loop only gathers and hands out the bytes.
   */
  compressIfOver(): void {
    if (this.compressing || this.rawBytes <= this.rawBodyBudget) return
    const target = this.rawBodyBudget - this.rawBodyBudget / 8
    const batch: StoredBody[] = []
    let left = this.rawBytes
    while (left > target && this.rawHead < this.rawQueue.length) {
      const body = this.rawQueue[this.rawHead++]!
      if (!body.raw) continue
      batch.push(body)
      left -= body.length
    }
    this.trimQueues()
    if (!batch.length) return
    this.compressing = this.compressBatch(batch).finally(() => {
      this.compressing = undefined
      this.compressIfOver()
    })
  }

  private async compressBatch(batch: StoredBody[]): Promise<void> {
    // Not inside the record that went over the budget: the batch starts on a later turn.
    await new Promise((resolve) => setImmediate(resolve))
    let i = 0
    while (i < batch.length) {
      const members: StoredBody[] = []
      let bytes = 0
      while (i < batch.length && (bytes === 0 || bytes + batch[i]!.length <= PACK_BYTES)) {
        members.push(batch[i]!)
        bytes += batch[i++]!.length
      }
      // Gone (evicted, cleared) while waiting: nothing to compress.
      const kept = members.filter((b) => b.raw)
      if (!kept.length) continue
      let gz: Buffer
      try {
        gz = await gzipAsync(kept.length === 1 ? kept[0]!.raw! : Buffer.concat(kept.map((b) => b.raw!)), {
          chunkSize: 256 * 1024,
        })
      } catch {
        // Not compressible by zlib (out of memory?): these bodies stay raw, out of the queue.
        continue
      }
      const pack: Pack = { gz, live: 0, dropped: false }
      let offset = 0
      for (const body of kept) {
        const at = offset
        offset += body.length
        if (!body.raw) continue
        body.raw = undefined
        body.pack = pack
        body.offset = at
        pack.live++
        this.rawBytes -= body.length
        this.rawBodies--
      }
      if (!pack.live) continue
      this.compressedBytes += gz.length
      this.compressedBodies += pack.live
      this.packs.push(pack)
      this.dropOverBudget()
    }
  }

  /** Over the compressed budget: the oldest packs go (their bodies' views say they are no longer kept). */
  private dropOverBudget(): void {
    while (this.compressedBytes > this.compressedBodyBudget && this.packHead < this.packs.length) {
      const pack = this.packs[this.packHead++]!
      if (!pack.gz) continue
      this.freePack(pack)
      pack.dropped = true
      this.compressedBodies -= pack.live
      this.droppedBodies += pack.live
    }
    this.trimQueues()
  }

  /** The kept bytes of a body: as received, or inflated from its pack; undefined once dropped. */
  bytesOf(body: StoredBody | undefined): Buffer | undefined {
    if (!body) return undefined
    if (body.raw) return body.raw
    const pack = body.pack
    if (!pack?.gz) return undefined
    let inflated = this.inflated?.pack === pack ? this.inflated.bytes : undefined
    if (!inflated) {
      inflated = gunzipSync(pack.gz)
      this.inflated = inflated.length <= 2 * PACK_BYTES ? { pack, bytes: inflated } : undefined
    }
    return inflated.subarray(body.offset!, body.offset! + body.length)
  }

  /** Why a body is not shown, in the words of its view ("This body is …"). */
  droppedReason(): string {
    return `no longer kept: the exchange log keeps the newest ${sizeText(this.rawBodyBudget)} of bodies as received and about ${sizeText(this.compressedBodyBudget)} more compressed, and newer exchanges used that room; re-run the step to see it`
  }

  /** Resolves when no compression is running. */
  async idle(): Promise<void> {
    while (this.compressing) await this.compressing
  }

  /** Where the body bytes are: raw, compressed, dropped. */
  stats(): BodyStats {
    return {
      rawBytes: this.rawBytes,
      rawBodies: this.rawBodies,
      compressedBytes: this.compressedBytes,
      compressedBodies: this.compressedBodies,
      droppedBodies: this.droppedBodies,
      compressing: this.compressing !== undefined,
    }
  }

  /** Forgets every body's place in the queues (the log forgot each body first). */
  clear(): void {
    this.rawQueue = []
    this.rawHead = 0
    this.packs = []
    this.packHead = 0
    this.inflated = undefined
  }
}
