import { describe, expect, it, vi } from 'vitest'
import { decideExternalLink } from '../../../src-main/shell/external-links.ts'

describe('decideExternalLink', () => {
  it('opens http and https links in the browser, normalised', () => {
    expect(decideExternalLink('https://127.0.0.1:8443/auth?client_id=a&request=x.y.z')).toEqual({
      open: true,
      url: 'https://127.0.0.1:8443/auth?client_id=a&request=x.y.z',
    })
    expect(decideExternalLink('http://127.0.0.1:53682/callback')).toEqual({
      open: true,
      url: 'http://127.0.0.1:53682/callback',
    })
  })

  it.each([
    ['file:///etc/passwd', /not file:/],
    ['javascript:alert(1)', /not javascript:/],
    ['obconsole://callback#code=x', /not obconsole:/],
    ['data:text/html,<b>x</b>', /not data:/],
    ['not a url', /not a URL/],
    ['https://user:pass@bank.example/', /credentials/],
  ])('refuses %s, saying why', (url, reason) => {
    const d = decideExternalLink(url)
    expect(d.open).toBe(false)
    if (!d.open) expect(d.reason).toMatch(reason)
  })
})

const opened: string[] = []
let openHandler: ((details: { url: string }) => { action: string }) | undefined
vi.mock('electron', () => {
  class BrowserWindow {
    webContents = {
      setWindowOpenHandler: (fn: typeof openHandler) => {
        openHandler = fn
      },
      on: () => undefined,
    }
    once(): void {}
    loadFile(): Promise<void> {
      return Promise.resolve()
    }
  }
  return {
    BrowserWindow,
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => undefined },
        setPermissionRequestHandler: () => undefined,
      },
    },
    shell: {
      openExternal: async (url: string) => {
        opened.push(url)
      },
    },
  }
})

describe('the console window', () => {
  it('never opens a second window: https links go to the system browser, other schemes nowhere', async () => {
    const { createMainWindow, RENDERER_URL_PREFIX } = await import('../../../src-main/shell/main-window.ts')
    const { WebContentsGuard } = await import('../../../src-main/shell/web-contents-guard.ts')
    const guardLog: string[] = []
    const guard = new WebContentsGuard(RENDERER_URL_PREFIX, (l) => guardLog.push(l))
    const win = createMainWindow(guard) as unknown as { webContents: Parameters<typeof guard.decide>[0] }
    // The window's navigation policy: its own pages only.
    const prevented: string[] = []
    const event = (url: string) => ({ preventDefault: () => prevented.push(url) })
    expect(
      guard.decide(
        win.webContents,
        event(`${RENDERER_URL_PREFIX}index.html#/flows`),
        `${RENDERER_URL_PREFIX}index.html#/flows`,
      ),
    ).toEqual({ action: 'allow' })
    expect(guard.decide(win.webContents, event('https://evil.example/'), 'https://evil.example/').action).toBe('deny')
    expect(prevented).toEqual(['https://evil.example/'])
    expect(guardLog.join('\n')).toMatch(
      /refused a navigation: the console window only shows its own pages, not https:\/\/evil\.example\//,
    )
    expect(openHandler).toBeDefined()
    // The refusal is logged on stderr through the terminal writer.
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    expect(openHandler!({ url: 'https://127.0.0.1:8443/auth?x=1' })).toEqual({ action: 'deny' })
    expect(openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(opened).toEqual(['https://127.0.0.1:8443/auth?x=1'])
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/refused to open a link.*file:.*\n$/))
    warn.mockRestore()
  })
})
