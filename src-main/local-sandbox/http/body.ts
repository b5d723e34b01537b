import type { Context } from 'koa'

/** Largest request body the sandbox reads; larger bodies get 413 rather than filling memory. */
export const MAX_BODY_BYTES = 1024 * 1024

export class BodyTooLargeError extends Error {}

/**
 * Reads the raw request body as bytes, exactly as sent: signatures (`x-jws-signature`, registration
 * JWTs) are verified over these bytes, never over a re-serialised object.
 */
export async function readRawBody(ctx: Pick<Context, 'req'>, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length
    if (size > limit) throw new BodyTooLargeError(`request body over ${limit} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
