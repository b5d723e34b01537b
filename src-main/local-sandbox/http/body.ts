import type { Context } from 'koa'
import { pipeline, Writable } from 'node:stream'

/** Largest request body the sandbox reads; larger bodies get 413 rather than filling memory. */
export const MAX_BODY_BYTES = 1024 * 1024

export class BodyTooLargeError extends Error {}

/**
 * Reads the raw request body as bytes, exactly as sent: signatures (`x-jws-signature`, registration
 * JWTs) are verified over these bytes, never over a re-serialised object.
 *
 * A pipeline into a collecting writable rather than `for await`: the stream's async iterator costs a
 * promise and its bookkeeping per chunk, a few tenths of a millisecond per body in a young process.
 * Same outcomes: past `limit` BodyTooLargeError, and the request stream (not the connection: the answer
 * can still be sent) is destroyed; a stream error (the client went away mid-body) rejects with it.
 */
export function readRawBody(ctx: Pick<Context, 'req'>, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const collect = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        if (size > limit) return callback(new BodyTooLargeError(`request body over ${limit} bytes`))
        chunks.push(chunk)
        callback()
      },
    })
    pipeline(ctx.req, collect, (err) =>
      err ? reject(err) : resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)),
    )
  })
}
