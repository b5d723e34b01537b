/**
 * Text from outside (a bank's answer, a file, a certificate, a token) made safe to show on a terminal.
 *
 * A terminal acts on control characters: ESC starts a sequence that can clear the screen, move the cursor,
 * recolour or rewrite what was printed, set the window title or (OSC 8, OSC 52) add links and write the
 * clipboard; C1 characters (U+0080–U+009F) are the same controls in one character on many terminals. So every
 * C0 control but tab (and the newline between lines), DEL, every C1 control and every lone surrogate is shown
 * escaped (`\x1b`, `\x00`, `\x9b`, `\ud800`), never emitted; a line longer than {@link TERMINAL_LINE_LIMIT}
 * characters is cut with an ellipsis that says how much was left out.
 */

/** The most characters of one line (or one value) printed; the rest is cut with `… (N more characters)`. */
export const TERMINAL_LINE_LIMIT = 2000

/** How a character is shown escaped: `\xNN` below U+0100, `\uNNNN` above (lone surrogates). */
function escaped(code: number): string {
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** Whether a UTF-16 code unit is shown escaped: C0 (but tab), DEL, C1. Newlines are decided by the caller. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f)
}

// eslint-disable-next-line no-control-regex -- the characters this module exists to find
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\ud800-\udfff]/

/**
 * One value or line with every control character escaped, newlines and carriage returns included, cut at
 * `limit` characters. For text made of several lines, {@link terminalText}.
 *
 * @example terminalLine('\x1b[2J\x1b[31mUK.OBIE.Field.Invalid') // '\\x1b[2J\\x1b[31mUK.OBIE.Field.Invalid'
 */
export function terminalLine(value: string, limit = TERMINAL_LINE_LIMIT): string {
  let text = value
  let cut = 0
  if (text.length > limit) {
    // Never split a surrogate pair at the cut.
    const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit
    cut = text.length - end
    text = text.slice(0, end)
  }
  const safe = UNSAFE.test(text) ? escapeAll(text) : text
  return cut ? `${safe}… (${cut} more characters)` : safe
}

/**
 * Text of one or more lines, as a writer prints it: each line through {@link terminalLine} (its own limit),
 * the newlines between them kept.
 *
 * @example terminalText('✗ Consent\n    cause: \x9b2J') // '✗ Consent\n    cause: \\x9b2J'
 */
export function terminalText(text: string, limit = TERMINAL_LINE_LIMIT): string {
  if (!UNSAFE.test(text) && text.length <= limit) return text
  return text
    .split('\n')
    .map((line) => terminalLine(line, limit))
    .join('\n')
}

/**
 * A value as JSON that is safe on a terminal and still valid JSON: JSON.stringify escapes C0 and lone
 * surrogates; DEL, C1 and U+2028/U+2029 (which it leaves raw) are escaped as `\u009b`. They can only stand
 * inside strings, so the result parses to the same value. Nothing is cut unless `cutStringsAt` is given (log
 * entries): then each longer string ends with `… (N more characters)`.
 */
export function terminalJson(value: unknown, space?: number, cutStringsAt?: number): string {
  const cut =
    cutStringsAt === undefined
      ? undefined
      : (_key: string, v: unknown) =>
          typeof v === 'string' && v.length > cutStringsAt
            ? `${v.slice(0, cutStringsAt)}… (${v.length - cutStringsAt} more characters)`
            : v
  const json = JSON.stringify(value, cut, space)
  if (json === undefined) return 'null'
  return json.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function escapeAll(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
      out += text[i]! + text[i + 1]!
      i++
    } else if (isControl(code) || code === 0x0a || isHighSurrogate(code) || isLowSurrogate(code)) {
      out += escaped(code)
    } else out += text[i]!
  }
  return out
}
