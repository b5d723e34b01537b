import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeFramed, FRAMED_ANSWER } from '../../../src-main/contract/framed-answer.ts'
import type { ContractEvent } from '../../../src-main/contract/transport.ts'
import { startWebHost, type RunningWebHost } from '../../../src-main/web-host/web-host.ts'

/** Raw HTTP so the test controls Host and Origin exactly (fetch would set them itself). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** A response body as the inspector opens it: large enough to travel beside the JSON, with quotes and non-ASCII. */
const LARGE_BODY = `{"Data":{"Transaction":[${'{"Info":"café \\"A\\" £1"},'.repeat(FRAMED_ANSWER.largeString / 20)}{}]}}`

describe('web host', () => {
  let host: RunningWebHost
  let dir: string
  const listeners = new Set<(e: ContractEvent) => void>()

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-host-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>OB Console</title>')
    writeFileSync(join(dir, 'assets', 'app-abc.js'), 'console.log(1)')
    writeFileSync(join(tmpdir(), 'outside-secret.txt'), 'TOP-SECRET-CONTENT')
    host = await startWebHost({
      rendererDir: dir,
      handlers: {
        'echo.say': async (input) => ({ ok: true, value: { said: input } }),
        'echo.fail': async () => ({ ok: false, error: { code: 'X', what: 'w', cause: 'c', fix: 'f' } }),
        'echo.large': async () => ({ ok: true, value: { label: 'page', body: { text: LARGE_BODY } } }),
      },
      subscribe: (l) => {
        listeners.add(l)
        return () => listeners.delete(l)
      },
    })
  })
  afterAll(async () => {
    await host.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('binds 127.0.0.1 and prints a URL carrying the token in the fragment only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(host.url).toBe(`${host.origin}/#token=${host.token}`)
    expect(host.token.length).toBeGreaterThanOrEqual(40)
  })

  it('answers a call with the handler result when the token is sent', async () => {
    const res = await raw(
      host.port,
      'POST',
      '/api/call/echo.say',
      { 'x-ob-console-token': host.token, 'content-type': 'application/json' },
      JSON.stringify({ input: { a: 1 } }),
    )
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text)).toEqual({ ok: true, value: { said: { a: 1 } } })
  })

  it('answers a result holding a large string framed: the string as its own bytes, after the head', async () => {
    const res = await raw(host.port, 'POST', '/api/call/echo.large', { 'x-ob-console-token': host.token }, '{}')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe(FRAMED_ANSWER.type)
    expect(res.headers['cache-control']).toBe('no-store')
    const bytes = Buffer.from(res.text)
    const headBytes = Number(res.headers[FRAMED_ANSWER.headBytesHeader])
    // Not escaped into the JSON: the body's bytes follow the head as they are.
    expect(bytes.subarray(headBytes).toString()).toBe(LARGE_BODY)
    expect(bytes.subarray(0, headBytes).toString()).not.toContain('café')
    expect(decodeFramed(bytes, headBytes)).toEqual({ ok: true, value: { label: 'page', body: { text: LARGE_BODY } } })
  })

  it('passes error results through unchanged', async () => {
    const res = await raw(host.port, 'POST', '/api/call/echo.fail', { 'x-ob-console-token': host.token }, '{}')
    expect(JSON.parse(res.text)).toEqual({ ok: false, error: { code: 'X', what: 'w', cause: 'c', fix: 'f' } })
  })

  it('refuses a call without the token, or with a wrong one', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'x-ob-console-token': 'nope' },
      { 'x-ob-console-token': host.token.slice(1) + 'A' },
    ]) {
      const res = await raw(host.port, 'POST', '/api/call/echo.say', headers, '{}')
      expect(res.status).toBe(403)
      expect(JSON.parse(res.text).error.code).toBe('ACCESS_REFUSED')
    }
  })

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const res = await raw(
      host.port,
      'POST',
      '/api/call/echo.say',
      { host: `evil.example:${host.port}`, 'x-ob-console-token': host.token },
      '{}',
    )
    expect(res.status).toBe(403)
    expect(JSON.parse(res.text).error.cause).toContain('Host header')
    const page = await raw(host.port, 'GET', '/', { host: 'attacker.test' })
    expect(page.status).toBe(403)
  })

  it('refuses a cross-origin Origin and the null origin', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${host.port + 1}`, 'null']) {
      const res = await raw(host.port, 'POST', '/api/call/echo.say', { origin, 'x-ob-console-token': host.token }, '{}')
      expect(res.status).toBe(403)
    }
    const same = await raw(
      host.port,
      'POST',
      '/api/call/echo.say',
      { origin: host.origin, 'x-ob-console-token': host.token },
      '{}',
    )
    expect(same.status).toBe(200)
  })

  it('answers unknown and malformed call names with 404, bad JSON with 400, GET on a call with 405', async () => {
    const t = { 'x-ob-console-token': host.token }
    expect((await raw(host.port, 'POST', '/api/call/nope.nothing', t, '{}')).status).toBe(404)
    expect((await raw(host.port, 'POST', '/api/call/__proto__.x', t, '{}')).status).toBe(404)
    expect((await raw(host.port, 'POST', '/api/call/constructor', t, '{}')).status).toBe(404)
    expect((await raw(host.port, 'POST', '/api/call/echo.say', t, '{not json')).status).toBe(400)
    expect((await raw(host.port, 'GET', '/api/call/echo.say', t)).status).toBe(405)
  })

  it('serves the renderer with a CSP, falls back to index.html, and never leaves its folder', async () => {
    const index = await raw(host.port, 'GET', '/')
    expect(index.status).toBe(200)
    expect(index.text).toContain('OB Console')
    expect(String(index.headers['content-security-policy'])).toContain("default-src 'self'")
    expect((await raw(host.port, 'GET', '/inspector/42')).text).toContain('OB Console')
    const asset = await raw(host.port, 'GET', '/assets/app-abc.js')
    expect(asset.headers['content-type']).toContain('javascript')
    expect(asset.headers['cache-control']).toContain('immutable')
    for (const path of [
      '/../outside-secret.txt',
      '/%2e%2e/outside-secret.txt',
      '/assets/../../outside-secret.txt',
      '/missing.js',
    ]) {
      const res = await raw(host.port, 'GET', path)
      expect(res.text).not.toContain('TOP-SECRET-CONTENT')
      expect([404, 200]).toContain(res.status)
      if (res.status === 200) expect(res.text).toContain('OB Console')
    }
  })

  it('streams events to token holders only', async () => {
    const refused = await raw(host.port, 'GET', '/api/events')
    expect(refused.status).toBe(403)
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/api/events',
          headers: { host: `127.0.0.1:${host.port}`, 'x-ob-console-token': host.token },
        },
        (res) => {
          let text = ''
          res.on('data', (c) => {
            text += c
            if (text.includes('data:')) {
              req.destroy()
              resolve(text)
            }
          })
          setImmediate(() => listeners.forEach((l) => l({ name: 'flows.onDidProgress', payload: { step: 'token' } })))
        },
      )
      req.on('error', (e) =>
        e.message.includes('aborted') || e.message.includes('socket hang up') ? undefined : reject(e),
      )
      req.end()
    })
    expect(received).toContain('event: flows.onDidProgress')
    expect(received).toContain('data: {"step":"token"}')
  })
})
