import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, session, shell } from 'electron'
import { decideExternalLink } from './external-links.ts'
import { consoleWindowPolicy } from './navigation-policy.ts'
import type { WebContentsGuard } from './web-contents-guard.ts'
import { writeErrLine } from '../plumbing/terminal-out.ts'

export const RENDERER_INDEX = join(import.meta.dirname, '../renderer/index.html')
/** URL prefix of the built renderer: the only origin allowed to call the main side. */
export const RENDERER_URL_PREFIX = pathToFileURL(join(import.meta.dirname, '../renderer/')).toString()

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/**
 * The console's window, hardened per Electron's security checklist: sandboxed renderer with context
 * isolation and no Node, a strict CSP, no middle-click windows (Auxclick off), no other window, no
 * navigation away from its own pages (the guard's policy), no permissions (the guard, on its session).
 */
export function createMainWindow(guard: WebContentsGuard): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } })
  })
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      disableBlinkFeatures: 'Auxclick',
    },
  })
  // No second window ever: an http(s) link opened "in a new tab" (the bank's authorisation page, for
  // the loopback-listener capture) goes to the system browser; anything else is refused.
  win.webContents.setWindowOpenHandler(({ url }) => {
    const decision = decideExternalLink(url)
    if (decision.open) void shell.openExternal(decision.url)
    else writeErrLine(`ob-console: refused to open a link from the console window: ${decision.reason}`)
    return { action: 'deny' }
  })
  guard.setPolicy(win.webContents, consoleWindowPolicy(RENDERER_URL_PREFIX))
  win.once('ready-to-show', () => win.show())
  void win.loadFile(RENDERER_INDEX)
  return win
}
