import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { authWindowPolicy, consoleWindowPolicy } from '../../../src-main/shell/navigation-policy.ts'
import type { PermissionSession } from '../../../src-main/shell/permissions.ts'
import { WebContentsGuard, type GuardedApp, type GuardedContents } from '../../../src-main/shell/web-contents-guard.ts'

const RENDERER = 'file:///opt/ob-console/out/renderer/'

function fakeSession(): PermissionSession & { set: string[] } {
  const set: string[] = []
  return {
    set,
    setPermissionRequestHandler: () => set.push('request'),
    setPermissionCheckHandler: () => set.push('check'),
    setDevicePermissionHandler: () => set.push('device'),
    setDisplayMediaRequestHandler: () => set.push('display'),
  }
}

class FakeContents extends EventEmitter {
  openHandler?: (d: { url: string }) => { action: string }
  constructor(readonly session: PermissionSession) {
    super()
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: 'deny' } | { action: 'allow' }): void {
    this.openHandler = h
  }
  /** Emits a navigation event as Electron does; true when a listener prevented it. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false
    this.emit(
      event,
      {
        preventDefault: () => {
          prevented = true
        },
      },
      url,
    )
    return prevented
  }
}

function setup() {
  const app = new EventEmitter()
  const log: string[] = []
  const guard = new WebContentsGuard(RENDERER, (l) => log.push(l))
  guard.install(app as unknown as GuardedApp)
  const create = (session: PermissionSession = fakeSession()) => {
    const contents = new FakeContents(session)
    app.emit('web-contents-created', {}, contents)
    return contents as FakeContents & GuardedContents
  }
  return { app, guard, log, create }
}

describe('the web contents guard', () => {
  it("hardens every session: created ones, and each web contents' own, once", () => {
    const { app, create } = setup()
    const partition = fakeSession()
    app.emit('session-created', partition)
    expect(partition.set).toEqual(['request', 'check', 'device', 'display'])
    create(partition)
    create(partition)
    expect(partition.set).toHaveLength(4)
    const other = fakeSession()
    create(other)
    expect(other.set).toEqual(['request', 'check', 'device', 'display'])
  })

  it('a web contents without a policy navigates nowhere, opens no window, attaches no webview', () => {
    const { create, log } = setup()
    const contents = create()
    expect(contents.navigate('will-navigate', 'https://bank.example/')).toBe(true)
    expect(contents.navigate('will-redirect', `${RENDERER}index.html`)).toBe(true)
    expect(contents.openHandler!({ url: 'https://bank.example/?token=SECRET' })).toEqual({ action: 'deny' })
    let prevented = false
    contents.emit('will-attach-webview', {
      preventDefault: () => {
        prevented = true
      },
    })
    expect(prevented).toBe(true)
    expect(log.join('\n')).not.toContain('SECRET')
  })

  it('the console window goes only to its own pages', () => {
    const { create, guard } = setup()
    const contents = create()
    guard.setPolicy(contents, consoleWindowPolicy(RENDERER))
    expect(contents.navigate('will-navigate', `${RENDERER}index.html`)).toBe(false)
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true)
  })

  it("the auth window follows the bank's pages and redirects, and hands the redirect URI back unloaded", () => {
    const { create, guard, log } = setup()
    const contents = create()
    const returned: string[] = []
    guard.setPolicy(contents, authWindowPolicy('ob-console://oauth/callback'), (url) => returned.push(url))
    expect(contents.navigate('will-navigate', 'https://auth.bank.example/interaction/1')).toBe(false)
    expect(contents.navigate('will-redirect', 'https://login.bank.example/psu')).toBe(false)
    expect(contents.navigate('will-redirect', 'ob-console://oauth/callback#code=c&state=s')).toBe(true)
    expect(returned).toEqual(['ob-console://oauth/callback#code=c&state=s'])
    expect(contents.navigate('will-navigate', 'file:///etc/passwd')).toBe(true)
    expect(returned).toHaveLength(1)
    expect(log.at(-1)).toMatch(
      /refused a navigation: the auth window only loads the bank's https pages .*file:\/\/\/etc\/passwd/,
    )
    expect(log.join('\n')).not.toContain('code=c')
  })
})
