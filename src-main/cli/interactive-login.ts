import { createRequire } from 'node:module'
import type * as QRCodeModule from 'qrcode'
import { createInterface, type Interface } from 'node:readline'
import type { FlowState } from '../contract/flows.ts'
import { AppError } from '../core/app-error.ts'
import { openInBrowser } from './open-browser.ts'

type Awaiting = NonNullable<FlowState['awaiting']>
type CaptureAnswer = { ok: true } | { ok: false; error: { what: string; cause: string; fix: string } }

/** Where the announcement is printed: a QR code is drawn only on a terminal wide enough for it. */
export interface LoginTerminal {
  isTTY?: boolean
  columns?: number
  write(text: string): unknown
}

export interface InteractiveLoginOptions {
  /** The loopback listener takes the PSU's return by itself; `pasted` reads it from `input`. */
  mode: 'loopback' | 'pasted'
  /** `--json`: the URL goes first, as the JSON line `{"authorisationUrl": …}` (say writes to standard error). */
  json: boolean
  /** Open the URL in the system's browser (off with --no-open, or OB_CONSOLE_NO_OPEN=1). */
  open: boolean
  /** The local sandbox: name a test PSU and warn of its certificate authority. */
  localSandbox: boolean
  /** Prints one line (escaped for the terminal where it goes). */
  say: (line: string) => void
  /** The stream say writes to: the QR code, drawn by the qrcode package (block characters and colours), goes there. */
  terminal: LoginTerminal
  /** Hands a pasted URL to the waiting flow (`flows.capture`). */
  capture: (url: string) => Promise<CaptureAnswer>
  /** Where a pasted URL is read from (standard input), asked for only with --paste. */
  input: () => NodeJS.ReadableStream
  /** Opens a URL in the browser; tests give theirs. */
  openBrowser?: (url: string, hint: (line: string) => void) => void
}

/** Whether the command should open the system's browser: not with --no-open, not with OB_CONSOLE_NO_OPEN=1. */
export function shouldOpenBrowser(noOpen: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return !noOpen && env.OB_CONSOLE_NO_OPEN !== '1'
}

/**
 * The PSU's login from the command line, once the flow waits for them: the authorisation URL printed (a
 * JSON line first with --json; a QR code for the phone on a terminal), the system's browser opened, then
 * the loopback listener waited on or the returned URL read from standard input, asked again after a bad
 * paste. `abandoned` rejects when the return can no longer come (standard input ended before a good paste).
 */
export class InteractiveLogin {
  readonly abandoned: Promise<never>
  readonly #o: InteractiveLoginOptions
  #abandon!: (err: AppError) => void
  #announced = false
  #stopped = false
  #reader?: Interface

  constructor(options: InteractiveLoginOptions) {
    this.#o = options
    this.abandoned = new Promise<never>((_resolve, reject) => (this.#abandon = reject))
    // Nothing may wait on it (the loopback mode never abandons): a rejection is never unhandled.
    this.abandoned.catch(() => undefined)
  }

  /** Prints where to send the PSU and starts waiting for their return; only the first call does anything. */
  async announce(awaiting: Awaiting): Promise<void> {
    const url = awaiting.authorisationUrl
    if (this.#announced || this.#stopped || !url) return
    this.#announced = true
    const { say } = this.#o
    if (this.#o.json)
      say(JSON.stringify({ authorisationUrl: url, ...(awaiting.deeplink ? { deeplink: awaiting.deeplink } : {}) }))
    if (awaiting.deeplink) {
      say('On the phone with the bank app, open this deeplink (or scan the QR code) and approve as the PSU:')
      say(`  ${awaiting.deeplink}`)
      await this.#qrCode(awaiting.deeplink)
      say("Or open the bank's authorisation page in a browser:")
      say(`  ${url}`)
    } else {
      say(
        `Open this URL in a browser and log in as the PSU${this.#o.localSandbox ? ' (a test PSU of the local sandbox, e.g. amelia / amelia-sandbox)' : ''}:`,
      )
      say(`  ${url}`)
      await this.#qrCode(url)
    }
    if (this.#o.localSandbox)
      say(
        "The local sandbox's certificate authority was made on this machine: the browser may warn about it; continue to the page.",
      )
    if (this.#o.open && !awaiting.deeplink) {
      say('Opening it in the system browser (--no-open to stop that).')
      ;(this.#o.openBrowser ?? openInBrowser)(url, say)
    }
    if (this.#o.mode === 'loopback')
      say(
        `Waiting for the bank to send the PSU back to ${awaiting.redirectUri}, where the console takes the code by itself (Ctrl+C stops).`,
      )
    else this.#readPasted(awaiting.redirectUri)
  }

  /** Stops reading standard input (the flow ended, or the command stops). */
  stop(): void {
    this.#stopped = true
    this.#reader?.close()
  }

  async #qrCode(url: string): Promise<void> {
    const t = this.#o.terminal
    if (!t.isTTY) return
    try {
      // Required at run time from node_modules, only for a QR code: the built command line leaves it out of its bundle.
      const QRCode = createRequire(import.meta.url)('qrcode') as typeof QRCodeModule
      // Two rows of modules per line, one column each, with a one-module border on each side.
      const width = QRCode.create(url, { errorCorrectionLevel: 'L' }).modules.size + 2
      if (t.columns !== undefined && width > t.columns) {
        this.#o.say(`(A QR code of it for a phone needs ${width} columns; this terminal has ${t.columns}.)`)
        return
      }
      t.write((await QRCode.toString(url, { type: 'terminal', small: true, errorCorrectionLevel: 'L' })) + '\n')
    } catch (err) {
      this.#o.say(`(No QR code of it: ${(err as Error).message}.)`)
    }
  }

  #readPasted(redirectUri: string): void {
    const { say } = this.#o
    const ask = () =>
      say(`Then paste here the whole address the browser ended on (it starts with ${redirectUri}), and press Enter:`)
    ask()
    const reader = createInterface({ input: this.#o.input(), terminal: false })
    this.#reader = reader
    let taken = false
    let queue = Promise.resolve()
    reader.on('line', (line) => {
      queue = queue.then(async () => {
        if (taken || this.#stopped) return
        const url = line.trim()
        if (!url) {
          say('Nothing was pasted.')
          ask()
          return
        }
        const answer = await this.#o.capture(url)
        if (answer.ok) {
          taken = true
          reader.close()
          return
        }
        say(`✗ ${answer.error.what}\n    cause: ${answer.error.cause}\n    fix:   ${answer.error.fix}`)
        ask()
      })
    })
    reader.once('close', () => {
      void queue.then(() => {
        if (taken || this.#stopped) return
        this.#abandon(
          new AppError('INVALID_INPUT', {
            what: 'Standard input ended before the address the bank returned the PSU to was pasted.',
            cause:
              'With --paste the console reads that address from standard input, and it was closed (Ctrl+D, the end of a piped file, or no terminal attached).',
            fix: 'Run the command again in a terminal and paste the address when asked, or leave out --paste so the loopback listener takes the return by itself.',
          }),
        )
      })
    })
  }
}
