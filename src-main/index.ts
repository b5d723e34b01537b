// Electron composition root: wiring only. The services are the same plain-Node ones the web host and the
// CLI use; Electron supplies its capabilities through ports (electron-store, safeStorage, windows, the
// custom-scheme handler).
import { app, BrowserWindow, safeStorage, session } from 'electron'
import ElectronStore from 'electron-store'
import { createMasterKeyEncryptor } from './certificates/key-file-encryptor.ts'
import { keychainMasterKeySource } from './certificates/master-key.ts'
import { createConsoleRuntime, type ConsoleRuntime } from './cli/console-runtime.ts'
import type { HandlerTable } from './contract/transport.ts'
import { ensureDataDir } from './core/paths.ts'
import type { SettingsDocument } from './services/persistence/settings-schema.ts'
import { cachedSettingsStore, SETTINGS_STORE_OPTIONS } from './services/persistence/settings-store.ts'
import { openAuthWindow } from './shell/auth-window.ts'
import { registerDeeplinkHandler } from './shell/deeplink.ts'
import { forwardEvents, registerContractIpc } from './shell/ipc.ts'
import { createMainWindow, RENDERER_URL_PREFIX } from './shell/main-window.ts'
import { WebContentsGuard } from './shell/web-contents-guard.ts'
import { writeErrLine } from './plumbing/terminal-out.ts'

let runtime: ConsoleRuntime | undefined
let mainWindow: BrowserWindow | undefined
const pendingDeeplinks: string[] = []
// Every session and web contents the app creates is guarded from its creation on: no permissions,
// no <webview>, no new windows, navigation only as its window's policy says (nowhere by default).
const guard = new WebContentsGuard(RENDERER_URL_PREFIX, writeErrLine)
app.on('session-created', (session) => guard.hardenSession(session))
app.on('web-contents-created', (_event, contents) => guard.guard(contents))

function deliver(url: string): void {
  if (!runtime) {
    pendingDeeplinks.push(url)
    return
  }
  const taken = runtime.services.flows.deliverDeeplink(url)
  runtime.services.emit('flows.onDidReceiveDeeplink', { url })
  if (!taken)
    runtime.services.emit('app.onDidFail', {
      code: 'INVALID_INPUT',
      what: 'A deeplink arrived that no flow waits for.',
      cause: 'Its state matches no authorisation in progress.',
      fix: 'Paste it into the flow it belongs to, or start the authorisation again.',
    })
}

if (!registerDeeplinkHandler(deliver, () => mainWindow?.focus())) {
  app.quit()
} else {
  app.whenReady().then(async () => {
    const store = new ElectronStore<SettingsDocument>({
      ...SETTINGS_STORE_OPTIONS,
      name: SETTINGS_STORE_OPTIONS.configName,
    })
    const settings = cachedSettingsStore(store)
    guard.hardenSession(session.defaultSession)
    const dataDir = app.getPath('userData')
    // The secret store's master key is wrapped by the OS keychain (safeStorage); only the wrapped blob
    // is on disk. An older clear key file is migrated now; secrets an older version encrypted with
    // safeStorage directly still decrypt (legacy). Without a keychain: a 0600 key file, said in the log and app.info.
    const masterKey = keychainMasterKeySource({
      dir: ensureDataDir(dataDir).secrets,
      keychain: safeStorage,
      log: writeErrLine,
    })
    const encryptor = createMasterKeyEncryptor(masterKey, { legacy: safeStorage })
    try {
      masterKey.load()
    } catch (err) {
      writeErrLine(`OB Console: ${(err as Error).message}`)
    }
    runtime = await createConsoleRuntime({
      host: 'electron',
      dataDir,
      settings,
      encryptor,
      openAuthWindow: (url, redirectUri, back) => {
        void openAuthWindow(guard, mainWindow, url, redirectUri).then((returned) => returned && back(returned))
      },
    })
    mainWindow = createMainWindow(guard)
    const trusted = new Set([mainWindow.webContents.id])
    registerContractIpc(runtime.handlers as unknown as HandlerTable, trusted, RENDERER_URL_PREFIX)
    forwardEvents(runtime.services.subscribe, () => BrowserWindow.getAllWindows().map((w) => w.webContents))
    for (const url of pendingDeeplinks.splice(0)) deliver(url)
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Quitting waits for the runtime to stop (the flow history is written behind the steps), then quits.
  let stopped = false
  app.on('will-quit', (event) => {
    if (stopped || !runtime) return
    event.preventDefault()
    void runtime.stop().finally(() => {
      stopped = true
      app.quit()
    })
  })
}
