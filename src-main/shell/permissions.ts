import { describeUrl } from './navigation-policy.ts'

/**
 * Which web permissions a page may have in the desktop app: none, on every session the app creates
 * (the default session of the console's window, the auth window's `auth-window` partition, any
 * other). The one exception is writing text to the clipboard from the console's own renderer (its
 * Copy buttons, which fall back to asking the user to select the text when refused). The bank's
 * pages in the auth window get nothing: no camera, microphone, location, notifications, clipboard,
 * USB, HID, serial, Bluetooth, screen capture, fullscreen or `openExternal`.
 */
export const CONSOLE_RENDERER_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

/** True when `permission`, asked by a page at `requestingUrl`, is granted: only the allowance above, only for the console's renderer. */
export function decidePermission(
  permission: string,
  requestingUrl: string | undefined,
  consoleRendererUrlPrefix: string,
): boolean {
  if (!CONSOLE_RENDERER_PERMISSIONS.has(permission) || !requestingUrl) return false
  return requestingUrl.startsWith(consoleRendererUrlPrefix)
}

/** The parts of an Electron `Session` the permission handlers are set on (a port, so it is tested without Electron). */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler:
      | ((
          webContents: unknown,
          permission: string,
          callback: (granted: boolean) => void,
          details: { requestingUrl?: string },
        ) => void)
      | null,
  ): void
  setPermissionCheckHandler(
    handler:
      | ((
          webContents: unknown,
          permission: string,
          requestingOrigin: string,
          details: { requestingUrl?: string },
        ) => boolean)
      | null,
  ): void
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void
  setDisplayMediaRequestHandler(handler: ((request: unknown, callback: (streams: null) => void) => void) | null): void
}

/**
 * Sets the handlers that deny every permission (except the allowance above) on `session`: requests
 * (a page asking), checks (a page querying), device access (USB, HID, serial) and screen capture.
 * Each refusal of a request is logged once per permission and session, naming the page.
 */
export function denyPermissions(
  session: PermissionSession,
  consoleRendererUrlPrefix: string,
  log: (line: string) => void,
): void {
  const logged = new Set<string>()
  session.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const granted = decidePermission(permission, details?.requestingUrl, consoleRendererUrlPrefix)
    if (!granted && !logged.has(permission)) {
      logged.add(permission)
      log(
        `ob-console: refused the permission "${permission}" to ${details?.requestingUrl ? describeUrl(details.requestingUrl) : 'a page'}`,
      )
    }
    callback(granted)
  })
  session.setPermissionCheckHandler((_wc, permission, _origin, details) =>
    decidePermission(permission, details?.requestingUrl, consoleRendererUrlPrefix),
  )
  session.setDevicePermissionHandler(() => false)
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null))
}
