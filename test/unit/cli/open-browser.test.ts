import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { browserCommand, openInBrowser, type Spawner } from '../../../src-main/cli/open-browser.ts'

/** A spawn that records its call and hands back a child the test drives. */
function fakeSpawn() {
  const calls: Array<{ command: string; args: string[]; options: unknown }> = []
  const child = Object.assign(new EventEmitter(), { unref: () => (unrefs.count += 1) })
  const unrefs = { count: 0 }
  const spawn = ((command: string, args: string[], options: unknown) => {
    calls.push({ command, args, options })
    return child
  }) as unknown as Spawner
  return { spawn, calls, child, unrefs }
}

const URL_WITH_AMPERSANDS = 'https://bank.example/auth?client_id=c&state=s&request=a.b.c'

describe('openInBrowser', () => {
  it('names the system opener of each platform', () => {
    expect(browserCommand('linux')).toEqual({ command: 'xdg-open', args: [] })
    expect(browserCommand('darwin')).toEqual({ command: 'open', args: [] })
    expect(browserCommand('win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler'] })
  })

  it('starts it detached with the URL as one argument, and does not wait for it', () => {
    const f = fakeSpawn()
    const hints: string[] = []
    openInBrowser(URL_WITH_AMPERSANDS, (l) => hints.push(l), { platform: 'win32', spawn: f.spawn })
    expect(f.calls).toEqual([
      {
        command: 'rundll32',
        args: ['url.dll,FileProtocolHandler', URL_WITH_AMPERSANDS],
        options: { detached: true, stdio: 'ignore' },
      },
    ])
    expect(f.unrefs.count).toBe(1)
    f.child.emit('exit', 0)
    expect(hints).toEqual([])
  })

  it('a missing opener or one that fails is a hint, never an error', () => {
    const missing = fakeSpawn()
    const hints: string[] = []
    openInBrowser(URL_WITH_AMPERSANDS, (l) => hints.push(l), { platform: 'linux', spawn: missing.spawn })
    missing.child.emit('error', Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' }))
    const failing = fakeSpawn()
    openInBrowser(URL_WITH_AMPERSANDS, (l) => hints.push(l), { platform: 'linux', spawn: failing.spawn })
    failing.child.emit('exit', 3)
    expect(hints).toEqual([
      'The browser did not open (xdg-open is not installed): open the URL above yourself, or pass --no-open.',
      'The browser did not open (xdg-open exited with 3): open the URL above yourself, or pass --no-open.',
    ])
  })
})
