/**
 * The desktop app's preload: exposes `window.obConsole` with one named function per contract call
 * (exactly CALL_NAMES, each invoking its own IPC channel) and `onEvent` for contract events. Nothing
 * else of Electron or Node reaches the page. Bundled to one CommonJS file so the window keeps `sandbox: true`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { CALL_NAMES } from '../contract/api.ts'
import { IPC_CHANNELS, type ContractEvent } from '../contract/transport.ts'

const bridge: Record<string, unknown> = {}
for (const name of CALL_NAMES) {
  bridge[name] = (input?: unknown) => ipcRenderer.invoke(IPC_CHANNELS.callPrefix + name, input)
}
bridge.onEvent = (listener: (event: ContractEvent) => void): (() => void) => {
  if (typeof listener !== 'function') throw new TypeError('onEvent needs a listener function')
  const handler = (_e: IpcRendererEvent, event: ContractEvent) => listener(event)
  ipcRenderer.on(IPC_CHANNELS.event, handler)
  return () => {
    ipcRenderer.removeListener(IPC_CHANNELS.event, handler)
  }
}

contextBridge.exposeInMainWorld('obConsole', Object.freeze(bridge))
