import { describe, expect, it } from 'vitest'
import { CaptureHub } from '../../../src-main/flows/capture/capture-hub.ts'
import { parseRedirect } from '../../../src-main/flows/capture/redirect-params.ts'
import { deeplinkFromArgv, handleSecondInstance } from '../../../src-main/shell/deeplink-argv.ts'

const RETURN = 'ob-console://oauth/callback#code=c-1&id_token=h.p.s&state=st-9'

describe("the desktop shell's deeplinks, without Electron", () => {
  it("finds the console-scheme URL in a second instance's command line (Windows and Linux argv shapes)", () => {
    expect(
      deeplinkFromArgv(['C:\\Program Files\\OB Console\\OB Console.exe', '--allow-file-access-from-files', RETURN]),
    ).toBe(RETURN)
    expect(deeplinkFromArgv(['/opt/OB Console/ob-console', '--no-sandbox', `"${RETURN}"`])).toBe(RETURN)
    expect(
      deeplinkFromArgv(['/usr/bin/electron', '/app/out/main/index.js', 'OB-Console://oauth/callback#state=x']),
    ).toBe('OB-Console://oauth/callback#state=x')
    expect(deeplinkFromArgv(['/opt/OB Console/ob-console', 'https://example.com/#code=1'])).toBeUndefined()
    expect(deeplinkFromArgv([])).toBeUndefined()
  })

  it('second instance with a deeplink argument: the waiting flow gets the code, the window comes to the front', async () => {
    const hub = new CaptureHub()
    const waiting = hub.wait('st-9', 5_000)
    const calls: string[] = []
    const taken: boolean[] = []
    const url = handleSecondInstance(
      ['/opt/OB Console/ob-console', '--no-sandbox', RETURN],
      (u) => {
        calls.push('url')
        taken.push(hub.deliver(parseRedirect(u, 'deeplink')))
      },
      () => calls.push('focus'),
    )
    expect(url).toBe(RETURN)
    expect(calls).toEqual(['url', 'focus'])
    expect(taken).toEqual([true])
    await expect(waiting).resolves.toMatchObject({ source: 'deeplink', code: 'c-1', state: 'st-9', codeIn: 'fragment' })
  })

  it('second instance without a URL (started again from the menu): only focuses', () => {
    const calls: string[] = []
    expect(
      handleSecondInstance(
        ['/opt/OB Console/ob-console'],
        () => calls.push('url'),
        () => calls.push('focus'),
      ),
    ).toBeUndefined()
    expect(calls).toEqual(['focus'])
  })
})
