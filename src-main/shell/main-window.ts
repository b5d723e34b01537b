import { join } from 'node:path'
import { BrowserWindow } from 'electron'

/** The console's window, hardened per Electron's security checklist. */
export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  })
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
  win.webContents.on('will-navigate', (event) => event.preventDefault())
  void win.loadFile(join(import.meta.dirname, '../renderer/index.html'))
  return win
}
