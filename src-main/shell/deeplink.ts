import { app } from 'electron'
import { CONSOLE_SCHEME, deeplinkFromArgv, handleSecondInstance } from './deeplink-argv.ts'

export { CONSOLE_SCHEME }

/**
 * Makes the console the handler of its custom scheme and hands every `ob-console://` URL to `onUrl`:
 * on Windows and Linux a second instance is started with the URL in argv (the single-instance lock turns
 * that into `second-instance` here); on macOS it arrives as `open-url`. Returns false when another
 * instance already holds the lock (this one should quit: the other got the URL).
 */
export function registerDeeplinkHandler(onUrl: (url: string) => void, focus: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false
  if (process.defaultApp && process.argv.length >= 2) {
    app.setAsDefaultProtocolClient(CONSOLE_SCHEME, process.execPath, [process.argv[1]!])
  } else {
    app.setAsDefaultProtocolClient(CONSOLE_SCHEME)
  }
  app.on('second-instance', (_event, argv) => {
    handleSecondInstance(argv, onUrl, focus)
  })
  app.on('open-url', (event, url) => {
    event.preventDefault()
    const link = deeplinkFromArgv([url])
    if (link) onUrl(link)
  })
  const initial = deeplinkFromArgv(process.argv)
  if (initial) app.whenReady().then(() => onUrl(initial))
  return true
}
