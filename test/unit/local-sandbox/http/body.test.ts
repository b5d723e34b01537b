import { PassThrough } from 'node:stream'
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { BodyTooLargeError, readRawBody } from '../../../../src-main/local-sandbox/http/body.ts'

const request = () => new PassThrough() as PassThrough & IncomingMessage

describe('readRawBody', () => {
  it('returns the bytes exactly as sent, across chunks', async () => {
    const req = request()
    const read = readRawBody({ req })
    req.write(Buffer.from('{"a":'))
    req.write(Buffer.from([0xe2, 0x82]))
    req.end(Buffer.from([0xac, 0x7d]))
    expect(await read).toEqual(Buffer.from('{"a":€}'))
  })

  it('an empty body is empty bytes', async () => {
    const req = request()
    const read = readRawBody({ req })
    req.end()
    expect((await read).length).toBe(0)
  })

  it('past the limit: BodyTooLargeError, and the request stream is destroyed', async () => {
    const req = request()
    const read = readRawBody({ req }, 8)
    req.write(Buffer.from('12345'))
    req.write(Buffer.from('67890'))
    await expect(read).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(req.destroyed).toBe(true)
  })

  it('a stream error or a close before the end rejects', async () => {
    const failing = request()
    const read = readRawBody({ req: failing })
    failing.write('x')
    failing.destroy(new Error('aborted'))
    await expect(read).rejects.toThrow('aborted')

    const closed = request()
    const early = readRawBody({ req: closed })
    closed.write('x')
    closed.destroy()
    await expect(early).rejects.toThrow()
  })
})
