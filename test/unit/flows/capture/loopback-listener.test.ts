import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { startLoopbackListener, type LoopbackListener } from '../../../../src-main/flows/capture/loopback-listener.ts'

function call(
  port: number,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode!, text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('loopback listener', () => {
  let listener: LoopbackListener | undefined
  afterEach(async () => {
    await listener?.stop()
    listener = undefined
  })

  it('serves a page that posts the fragment back, and hands the capture to the flow waiting on its state', async () => {
    listener = await startLoopbackListener(0)
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`)
    const page = await call(listener.port, 'GET', '/callback')
    expect(page.status).toBe(200)
    expect(page.text).toContain('/callback/capture.js')
    const script = await call(listener.port, 'GET', '/callback/capture.js')
    expect(script.text).toContain('location.href')
    // Once handed over, the page drops the code and the ID token from its address (and the tab's history).
    expect(script.text).toContain("if (j.handedOver) history.replaceState(null, '', location.pathname)")

    const waiting = listener.waitFor('state-1', 5_000)
    const posted = await call(
      listener.port,
      'POST',
      '/callback/capture',
      `${listener.redirectUri}#code=c1&id_token=a.b.c&state=state-1`,
    )
    expect(JSON.parse(posted.text)).toMatchObject({
      message: expect.stringMatching(/has the authorisation code/),
      handedOver: true,
    })
    const captured = await waiting
    expect(captured).toMatchObject({ source: 'loopback', code: 'c1', idToken: 'a.b.c', state: 'state-1' })
  })

  it('keeps a capture that arrives before anyone waits', async () => {
    listener = await startLoopbackListener(0)
    const posted = await call(
      listener.port,
      'POST',
      '/callback/capture',
      `${listener.redirectUri}#error=access_denied&state=early`,
    )
    // The page says no flow waits for it now, and how to hand it over by paste: it keeps its address for that.
    expect(JSON.parse(posted.text).handedOver).toBe(false)
    expect(JSON.parse(posted.text).message).toMatch(
      /no flow waits for its state now.*paste it into its "Returned URL" field/,
    )
    await expect(listener.waitFor('early', 1_000)).resolves.toMatchObject({ error: 'access_denied' })
  })

  it('times out with a sentence naming the redirect URI', async () => {
    listener = await startLoopbackListener(0)
    await expect(listener.waitFor('never', 50)).rejects.toThrow(
      /no redirect with this state reached http:\/\/127\.0\.0\.1:\d+\/callback/,
    )
  })

  it('refuses a foreign Host and a cross-origin post', async () => {
    listener = await startLoopbackListener(0)
    expect((await call(listener.port, 'GET', '/callback', undefined, { host: 'evil.test' })).status).toBe(403)
    expect((await call(listener.port, 'POST', '/callback/capture', 'x', { origin: 'http://evil.test' })).status).toBe(
      403,
    )
  })

  it('names the port when it is already in use', async () => {
    listener = await startLoopbackListener(0)
    await expect(startLoopbackListener(listener.port)).rejects.toThrow(
      new RegExp(`port ${listener.port} on 127.0.0.1 is in use`),
    )
  })
})
