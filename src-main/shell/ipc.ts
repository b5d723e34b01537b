import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron'
import {
  CALL_NAME_PATTERN,
  IPC_CHANNELS,
  type CallResult,
  type EventSubscribe,
  type HandlerTable,
} from '../contract/transport.ts'

/**
 * Whether an IPC message comes from a window we trust: one of our own webContents, its main frame, with
 * the renderer's own URL (file:// of the built renderer). Every handler passes this check first.
 */
export function isTrustedSender(
  event: IpcMainInvokeEvent,
  trusted: ReadonlySet<number>,
  rendererUrlPrefix: string,
): boolean {
  const frame = event.senderFrame
  if (!frame || !trusted.has(event.sender.id)) return false
  if (frame !== event.sender.mainFrame) return false
  return frame.url.startsWith(rendererUrlPrefix)
}

const refused = (name: string): CallResult<never> => ({
  ok: false,
  error: {
    code: 'ACCESS_REFUSED',
    what: `The call ${name} was refused.`,
    cause: "It did not come from the console's own window.",
    fix: 'Use the console window; other pages may not call the main side.',
  },
})

/**
 * Registers one `ipcMain.handle` per contract call (never a generic channel), each behind the sender
 * check. Returns a function that removes them.
 */
export function registerContractIpc(
  handlers: HandlerTable,
  trusted: ReadonlySet<number>,
  rendererUrlPrefix: string,
): () => void {
  const names = Object.keys(handlers).filter((n) => CALL_NAME_PATTERN.test(n))
  for (const name of names) {
    ipcMain.handle(IPC_CHANNELS.callPrefix + name, async (event, input: unknown) => {
      if (!isTrustedSender(event, trusted, rendererUrlPrefix)) return refused(name)
      return handlers[name]!(input)
    })
  }
  return () => names.forEach((n) => ipcMain.removeHandler(IPC_CHANNELS.callPrefix + n))
}

/** Forwards contract events to the given windows' renderers. */
export function forwardEvents(subscribe: EventSubscribe, targets: () => WebContents[]): () => void {
  return subscribe((event) => {
    for (const wc of targets()) if (!wc.isDestroyed()) wc.send(IPC_CHANNELS.event, event)
  })
}
