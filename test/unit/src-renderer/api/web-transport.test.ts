import { describe, expect, it } from 'vitest'
import { encodeFramed, FRAMED_ANSWER } from '../../../../src-main/contract/framed-answer.ts'
import { webTransport } from '../../../../src-renderer/api/web-transport.ts'
import type { ContractEvent } from '../../../../src-main/contract/transport.ts'
import { settle } from '../support/fake-api.ts'

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

describe('web transport calls', () => {
  it('POSTs {input} to /api/call/<name> with the token header and returns the result', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = []
    const t = webTransport({
      token: 'tok',
      fetch: (async (url: string, init: RequestInit) => {
        seen.push({ url, init })
        return json(200, { ok: true, value: [1] })
      }) as typeof fetch,
    })
    expect(await t.call('environments.list', { a: 1 })).toEqual({ ok: true, value: [1] })
    expect(seen[0]!.url).toBe('/api/call/environments.list')
    expect(seen[0]!.init.method).toBe('POST')
    expect((seen[0]!.init.headers as Record<string, string>)['x-ob-console-token']).toBe('tok')
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ input: { a: 1 } })
  })

  it('passes the web host refusal (403 with a contract error) through with its sentences', async () => {
    const t = webTransport({
      token: 'bad',
      fetch: (async () =>
        json(403, {
          ok: false,
          error: { code: 'WEB_HOST_REFUSED', what: 'refused', cause: 'token', fix: 'open the URL' },
        })) as unknown as typeof fetch,
    })
    const r = await t.call('app.info', undefined)
    expect(r).toEqual({
      ok: false,
      error: { code: 'WEB_HOST_REFUSED', what: 'refused', cause: 'token', fix: 'open the URL' },
    })
  })

  it('explains a missing token, an unreachable host and a non-JSON answer', async () => {
    expect(
      await webTransport({ token: undefined, fetch: (async () => json(200, {})) as unknown as typeof fetch }).call(
        'app.info',
        undefined,
      ),
    ).toMatchObject({ ok: false, error: { code: 'WEB_HOST_NO_TOKEN' } })
    const down = webTransport({
      token: 't',
      fetch: (async () => {
        throw new TypeError('Failed to fetch')
      }) as unknown as typeof fetch,
    })
    const r = await down.call('app.info', undefined)
    expect(r).toMatchObject({ ok: false, error: { code: 'WEB_HOST_UNREACHABLE' } })
    expect(!r.ok && r.error.cause).toContain('Failed to fetch')
    const html = webTransport({
      token: 't',
      fetch: (async () => new Response('<html>', { status: 502 })) as unknown as typeof fetch,
    })
    expect(await html.call('app.info', undefined)).toMatchObject({ ok: false, error: { code: 'WEB_HOST_BAD_ANSWER' } })
  })

  it('reads a framed answer (large strings beside the JSON) back into the result, and refuses a malformed one', async () => {
    const text = `{"Data":"${'é'.repeat(FRAMED_ANSWER.largeString)}"}`
    const result = { ok: true, value: { response: { body: { text, encoding: 'utf8' } } } }
    const parts = encodeFramed(result)!
    const framed = (headBytes: number, body: Uint8Array[] = parts) =>
      webTransport({
        token: 't',
        fetch: (async () =>
          new Response(new Blob(body as BlobPart[]), {
            status: 200,
            headers: { 'content-type': FRAMED_ANSWER.type, [FRAMED_ANSWER.headBytesHeader]: String(headBytes) },
          })) as unknown as typeof fetch,
      })
    expect(await framed(parts[0]!.byteLength).call('exchanges.get', { id: 'x' })).toEqual(result)
    // Cut short on the way: a coded error that says what does not fit, never a wrong body.
    const cut = await framed(parts[0]!.byteLength, [parts[0]!, parts[1]!.subarray(1)]).call('exchanges.get', {
      id: 'x',
    })
    expect(cut).toMatchObject({ ok: false, error: { code: 'WEB_HOST_BAD_ANSWER' } })
    expect(!cut.ok && cut.error.cause).toMatch(/framed answer is malformed: the head lists \d+ bytes in all/)
    const noHead = await framed(Number.NaN).call('exchanges.get', { id: 'x' })
    expect(!noHead.ok && noHead.error.cause).toMatch(/head's length \(NaN\)/)
  })

  it('turns an answer that is not a contract result into an INTERNAL error naming the call', async () => {
    const t = webTransport({ token: 't', fetch: (async () => json(200, { hello: 1 })) as unknown as typeof fetch })
    const r = await t.call('flows.list', undefined)
    expect(r).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
    expect(!r.ok && r.error.what).toContain('flows.list')
  })
})

describe('web transport events', () => {
  function stream(chunks: string[], close = true): ReadableStream<Uint8Array> {
    const enc = new TextEncoder()
    return new ReadableStream({
      start(c) {
        for (const ch of chunks) c.enqueue(enc.encode(ch))
        if (close) c.close()
      },
    })
  }

  it('reads SSE with the token header, dispatches parsed events, and stops when the last listener leaves', async () => {
    const requests: RequestInit[] = []
    let signal: AbortSignal | undefined
    const t = webTransport({
      token: 'tok',
      fetch: (async (_url: string, init: RequestInit) => {
        requests.push(init)
        signal = init.signal ?? undefined
        return new Response(
          stream(
            [
              ': connected\n\nevent: exchanges.onDidRecord\ndata: {"id":"e1"}\n\n',
              'event: app.onDidFail\nda',
              'ta: {"code":"X"}\n\n',
            ],
            false,
          ),
        )
      }) as typeof fetch,
    })
    const got: ContractEvent[] = []
    const off = t.subscribe((e) => got.push(e))
    await settle()
    expect(got).toEqual([
      { name: 'exchanges.onDidRecord', payload: { id: 'e1' } },
      { name: 'app.onDidFail', payload: { code: 'X' } },
    ])
    expect((requests[0]!.headers as Record<string, string>)['x-ob-console-token']).toBe('tok')
    off()
    expect(signal?.aborted).toBe(true)
  })

  it('reconnects after the stream ends, with the configured delay, while someone listens', async () => {
    let connects = 0
    const delays: number[] = []
    const timers: Array<() => void> = []
    const t = webTransport({
      token: 'tok',
      retryDelaysMs: [10, 20],
      setTimeout: (fn, ms) => {
        delays.push(ms)
        timers.push(fn)
      },
      fetch: (async () => {
        connects++
        return new Response(stream([`event: e\ndata: ${connects}\n\n`]))
      }) as unknown as typeof fetch,
    })
    const got: unknown[] = []
    let reconnected = 0
    t.onReconnect!(() => reconnected++)
    t.subscribe((e) => got.push(e.payload))
    await settle()
    expect(connects).toBe(1)
    expect(reconnected).toBe(0)
    expect(delays).toEqual([0 + 10])
    timers.shift()!()
    await settle()
    expect(connects).toBe(2)
    expect(got).toEqual([1, 2])
    // The stream came back: listeners learn they may have missed events.
    expect(reconnected).toBe(1)
  })
})
