import { PassThrough } from 'node:stream'
import QRCode from 'qrcode'
import { describe, expect, it } from 'vitest'
import {
  InteractiveLogin,
  shouldOpenBrowser,
  type InteractiveLoginOptions,
} from '../../../src-main/cli/interactive-login.ts'

const URL_ = 'https://127.0.0.1:8443/auth?client_id=c1&response_type=code+id_token&state=s1&request=eyJ.eyJ.sig'
const awaiting = {
  stepId: 'capture',
  authorisationUrl: URL_,
  redirectUri: 'https://127.0.0.1:53682/callback',
  state: 's1',
}

function setup(over: Partial<InteractiveLoginOptions> = {}) {
  const lines: string[] = []
  const drawn: string[] = []
  const opened: string[] = []
  const pasted: string[] = []
  const input = new PassThrough()
  const login = new InteractiveLogin({
    mode: 'loopback',
    json: false,
    open: false,
    localSandbox: true,
    say: (l) => lines.push(l),
    terminal: { isTTY: false, write: (t) => drawn.push(t) },
    capture: async (url) => {
      pasted.push(url)
      return url.includes('#code=')
        ? { ok: true }
        : {
            ok: false,
            error: {
              what: 'The URL carries no code.',
              cause: 'It is not the return.',
              fix: 'Paste the address the browser ended on.',
            },
          }
    },
    input: () => input,
    openBrowser: (url) => opened.push(url),
    ...over,
  })
  return { login, lines, drawn, opened, pasted, input }
}

/** The dark modules of a QR code drawn by the terminal renderer (two rows a line, a one-module border). */
function modulesOf(drawing: string, size: number): boolean[] {
  // eslint-disable-next-line no-control-regex
  const rows = drawing.replace(/\x1b\[[0-9;]*m/g, '').split('\n')
  const dark: boolean[] = []
  for (let y = 0; y < size; y++) {
    const line = [...rows[(y + 1) >> 1]!]
    for (let x = 0; x < size; x++) {
      const ch = line[x + 1]!
      const top = ch === '▀' || ch === '█'
      const bottom = ch === '▄' || ch === '█'
      dark.push((y + 1) % 2 === 0 ? top : bottom)
    }
  }
  return dark
}

describe('InteractiveLogin', () => {
  it('prints the URL and where the return goes, once, and opens the browser only when asked', async () => {
    const quiet = setup()
    await quiet.login.announce(awaiting)
    await quiet.login.announce(awaiting)
    expect(quiet.lines.filter((l) => l === `  ${URL_}`)).toHaveLength(1)
    expect(quiet.lines[0]).toContain('a test PSU of the local sandbox, e.g. amelia / amelia-sandbox')
    expect(quiet.lines.at(-1)).toContain(`Waiting for the bank to send the PSU back to ${awaiting.redirectUri}`)
    expect(quiet.opened).toEqual([])
    expect(quiet.drawn).toEqual([])

    const opening = setup({ open: true, localSandbox: false })
    await opening.login.announce(awaiting)
    expect(opening.opened).toEqual([URL_])
    expect(opening.lines.join('\n')).not.toContain('amelia')
  })

  it('--json: the URL first, as one JSON line', async () => {
    const s = setup({ json: true })
    await s.login.announce(awaiting)
    expect(JSON.parse(s.lines[0]!)).toEqual({ authorisationUrl: URL_ })
  })

  it('on a terminal, draws a QR code of the URL (the same modules), or says it does not fit', async () => {
    const s = setup({ terminal: { isTTY: true, columns: 200, write: (t) => drawn.push(t) } })
    const drawn = s.drawn
    await s.login.announce(awaiting)
    expect(drawn).toHaveLength(1)
    const qr = QRCode.create(URL_, { errorCorrectionLevel: 'L' })
    expect(modulesOf(drawn[0]!, qr.modules.size)).toEqual([...qr.modules.data].map(Boolean))

    const narrow = setup({ terminal: { isTTY: true, columns: 20, write: (t) => narrow.drawn.push(t) } })
    await narrow.login.announce(awaiting)
    expect(narrow.drawn).toEqual([])
    expect(narrow.lines).toContain(
      `(A QR code of it for a phone needs ${qr.modules.size + 2} columns; this terminal has 20.)`,
    )
  })

  it('--paste: an empty line and a refused URL are asked again; the return hands over and stops reading', async () => {
    const s = setup({ mode: 'pasted' })
    await s.login.announce(awaiting)
    const asks = () => s.lines.filter((l) => l.startsWith('Then paste here')).length
    expect(asks()).toBe(1)
    s.input.write('\n   \n')
    s.input.write('https://elsewhere.example/\n')
    s.input.write(`${awaiting.redirectUri}#code=c&state=s1\n`)
    await expect.poll(() => s.pasted).toEqual(['https://elsewhere.example/', `${awaiting.redirectUri}#code=c&state=s1`])
    expect(s.lines.filter((l) => l === 'Nothing was pasted.')).toHaveLength(2)
    expect(s.lines).toContain(
      '✗ The URL carries no code.\n    cause: It is not the return.\n    fix:   Paste the address the browser ended on.',
    )
    expect(asks()).toBe(4)
    // The reader closed at the good paste: the end of input afterwards abandons nothing (its handlers run in microtasks).
    let abandoned = false
    s.login.abandoned.catch(() => (abandoned = true))
    s.input.end()
    await new Promise((r) => setImmediate(r))
    expect(abandoned).toBe(false)
  })

  it('--paste: standard input ending before a good paste abandons the login with a coded error', async () => {
    const s = setup({ mode: 'pasted' })
    await s.login.announce(awaiting)
    s.input.end('\n')
    await expect(s.login.abandoned).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      what: 'Standard input ended before the address the bank returned the PSU to was pasted.',
    })
  })

  it('--no-open or OB_CONSOLE_NO_OPEN=1 keep the browser closed', () => {
    expect(shouldOpenBrowser(undefined, {})).toBe(true)
    expect(shouldOpenBrowser(true, {})).toBe(false)
    expect(shouldOpenBrowser(undefined, { OB_CONSOLE_NO_OPEN: '1' })).toBe(false)
  })
})
