import { BrowserWindow, type BrowserWindow as Win } from 'electron'

/**
 * Opens the bank's authorisation page in its own window and intercepts the redirect to the registered
 * redirect URI, so the fragment (`#code=…&id_token=…&state=…`) reaches the console without any listener.
 * The window is sandboxed, has no preload, and may not open other windows. Resolves with the redirect URL,
 * or undefined when the user closes the window first.
 */
export function openAuthWindow(parent: Win | undefined, authorisationUrl: string, redirectUri: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const win = new BrowserWindow({
      parent,
      width: 520,
      height: 720,
      title: 'Authorise with the bank',
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, partition: 'auth-window' },
    })
    let done = false
    const finish = (url: string | undefined) => {
      if (done) return
      done = true
      resolve(url)
      if (!win.isDestroyed()) win.close()
    }
    const intercept = (event: { preventDefault(): void }, url: string) => {
      if (url.startsWith(redirectUri)) {
        event.preventDefault()
        finish(url)
      }
    }
    win.webContents.on('will-redirect', intercept)
    win.webContents.on('will-navigate', intercept)
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
    win.on('closed', () => finish(undefined))
    void win.loadURL(authorisationUrl)
  })
}
