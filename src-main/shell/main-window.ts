import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, session, shell } from 'electron'
import { decideExternalLink } from './external-links.ts'

export const RENDERER_INDEX = join(import.meta.dirname, '../renderer/index.html')
/** URL prefix of the built renderer: the only origin allowed to call the main side. */
export const RENDERER_URL_PREFIX = pathToFileURL(join(import.meta.dirname, '../renderer/')).toString()

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

/** The console's window, hardened per Electron's security checklist. */
export function createMainWindow(): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } })
  })
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
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
    },
  })
  // No second window ever: an http(s) link opened "in a new tab" (the bank's authorisation page, for
  // the loopback-listener capture) goes to the system browser; anything else is refused.
  win.webContents.setWindowOpenHandler(({ url }) => {
    const decision = decideExternalLink(url)
    if (decision.open) void shell.openExternal(decision.url)
    else console.warn(`ob-console: refused to open a link from the console window: ${decision.reason}`)
    return { action: 'deny' }
  })
  win.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(RENDERER_URL_PREFIX)) event.preventDefault()
  })
  win.once('ready-to-show', () => win.show())
  void win.loadFile(RENDERER_INDEX)
  return win
}
