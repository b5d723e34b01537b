// Electron composition root: wiring only. The desktop shell arrives with the console UI; until then it
// opens the placeholder renderer in a hardened window.
import { app } from 'electron'
import { createMainWindow } from './shell/main-window.ts'

app.whenReady().then(() => {
  createMainWindow()
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})
