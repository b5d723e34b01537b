import { BrowserWindow, type BrowserWindow as Win } from 'electron'
import { authWindowPolicy } from './navigation-policy.ts'
import type { WebContentsGuard } from './web-contents-guard.ts'

/**
 * Opens the bank's authorisation page in its own window and intercepts the return to the registered
 * redirect URI, so the fragment (`#code=…&id_token=…&state=…`) reaches the console without any listener.
 * The window is sandboxed, has no preload, no permissions (its `auth-window` session is hardened by the
 * guard), no middle-click windows, may not open other windows, and navigates only as
 * `authWindowPolicy` says: the bank's https pages (http on loopback); a navigation or server redirect to
 * the redirect URI is never loaded but handed back. Resolves with the redirect URL, or undefined when
 * the user closes the window first.
 */
export function openAuthWindow(
  guard: WebContentsGuard,
  parent: Win | undefined,
  authorisationUrl: string,
  redirectUri: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const win = new BrowserWindow({
      parent,
      width: 520,
      height: 720,
      title: 'Authorise with the bank',
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        partition: 'auth-window',
        disableBlinkFeatures: 'Auxclick',
      },
    })
    let done = false
    const finish = (url: string | undefined) => {
      if (done) return
      done = true
      resolve(url)
      if (!win.isDestroyed()) win.close()
    }
    guard.setPolicy(win.webContents, authWindowPolicy(redirectUri), (url) => finish(url))
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
    win.on('closed', () => finish(undefined))
    void win.loadURL(authorisationUrl)
  })
}
