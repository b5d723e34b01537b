import { describe, expect, it } from 'vitest'
import {
  CONSOLE_RENDERER_PERMISSIONS,
  decidePermission,
  denyPermissions,
  type PermissionSession,
} from '../../../src-main/shell/permissions.ts'

const RENDERER = 'file:///opt/ob-console/out/renderer/'
const EVERY_PERMISSION = [
  'media',
  'geolocation',
  'notifications',
  'clipboard-read',
  'clipboard-sanitized-write',
  'openExternal',
  'fullscreen',
  'pointerLock',
  'hid',
  'serial',
  'usb',
  'display-capture',
  'midiSysex',
  'storage-access',
  'window-management',
  'unknown',
]

/** A session that records the handlers set on it. */
function fakeSession() {
  const handlers: Record<string, unknown> = {}
  const session: PermissionSession = {
    setPermissionRequestHandler: (h) => {
      handlers.request = h
    },
    setPermissionCheckHandler: (h) => {
      handlers.check = h
    },
    setDevicePermissionHandler: (h) => {
      handlers.device = h
    },
    setDisplayMediaRequestHandler: (h) => {
      handlers.display = h
    },
  }
  return {
    session,
    handlers: handlers as {
      request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] & object
      check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] & object
      device: (d: unknown) => boolean
      display: (r: unknown, cb: (s: null) => void) => void
    },
  }
}

describe('decidePermission', () => {
  it.each(EVERY_PERMISSION)("denies %s to the bank's pages and any other page", (permission) => {
    expect(decidePermission(permission, 'https://bank.example/login', RENDERER)).toBe(false)
    expect(decidePermission(permission, undefined, RENDERER)).toBe(false)
    expect(decidePermission(permission, 'file:///tmp/evil.html', RENDERER)).toBe(false)
  })
  it("grants the console's renderer only clipboard writing", () => {
    expect([...CONSOLE_RENDERER_PERMISSIONS]).toEqual(['clipboard-sanitized-write'])
    for (const p of EVERY_PERMISSION)
      expect(decidePermission(p, `${RENDERER}index.html`, RENDERER)).toBe(p === 'clipboard-sanitized-write')
  })
})

describe('denyPermissions on a session', () => {
  it('sets all four handlers, each refusing', () => {
    const { session, handlers } = fakeSession()
    const log: string[] = []
    denyPermissions(session, RENDERER, (l) => log.push(l))
    const answers: boolean[] = []
    for (const p of EVERY_PERMISSION)
      handlers.request(undefined, p, (g) => answers.push(g), {
        requestingUrl: 'https://bank.example/login?code=SECRET',
      })
    expect(answers).toEqual(EVERY_PERMISSION.map(() => false))
    expect(
      EVERY_PERMISSION.map((p) =>
        handlers.check(undefined, p, 'https://bank.example', { requestingUrl: 'https://bank.example/' }),
      ),
    ).toEqual(EVERY_PERMISSION.map(() => false))
    expect(handlers.device({ deviceType: 'usb' })).toBe(false)
    let streams: unknown = 'not called'
    handlers.display({}, (s) => {
      streams = s
    })
    expect(streams).toBeNull()
    // Logged once per permission, naming the page without its query.
    expect(log).toHaveLength(EVERY_PERMISSION.length)
    expect(log[0]).toBe('ob-console: refused the permission "media" to https://bank.example/login')
    handlers.request(undefined, 'media', () => undefined, { requestingUrl: 'https://bank.example/' })
    expect(log).toHaveLength(EVERY_PERMISSION.length)
  })
  it("lets the console's renderer write to the clipboard", () => {
    const { session, handlers } = fakeSession()
    denyPermissions(session, RENDERER, () => undefined)
    let granted: boolean | undefined
    handlers.request(
      undefined,
      'clipboard-sanitized-write',
      (g) => {
        granted = g
      },
      { requestingUrl: `${RENDERER}index.html` },
    )
    expect(granted).toBe(true)
    expect(
      handlers.check(undefined, 'clipboard-sanitized-write', 'file://', { requestingUrl: `${RENDERER}index.html` }),
    ).toBe(true)
    expect(handlers.check(undefined, 'clipboard-read', 'file://', { requestingUrl: `${RENDERER}index.html` })).toBe(
      false,
    )
  })
})
