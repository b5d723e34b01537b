/**
 * The deeplink part of the desktop shell that needs no Electron: which argument of a command line is the
 * console's `ob-console://` URL, and what the first instance does when a second one is started with one
 * (Windows and Linux start a new process for a custom-scheme URL; the single-instance lock turns it into
 * `second-instance` with that process's argv). `deeplink.ts` wires these to Electron's `app`.
 */

/** The console's own redirect scheme: `ob-console://oauth/callback` is registered as a redirect URI. */
export const CONSOLE_SCHEME = 'ob-console'

/**
 * The console-scheme URL in a command line, if any. Chromium's own switches (`--allow-file-access-from-files`,
 * `--original-process-start-time=…`) and the app path come first on Windows; the URL may be quoted by the
 * shell that started it, and the scheme is case-insensitive (RFC 3986).
 */
export function deeplinkFromArgv(argv: readonly string[]): string | undefined {
  for (const raw of argv) {
    const arg = raw.trim().replace(/^"(.*)"$/, '$1')
    if (arg.toLowerCase().startsWith(`${CONSOLE_SCHEME}://`)) return arg
  }
  return undefined
}

/**
 * The first instance's answer to `second-instance`: the URL in the new process's argv goes to `onUrl`
 * (which hands it to the flow waiting on its state), and the window comes to the front whether or not a URL
 * came (a second launch from the menu means "show me the console"). Returns the URL handed on.
 */
export function handleSecondInstance(
  argv: readonly string[],
  onUrl: (url: string) => void,
  focus: () => void,
): string | undefined {
  const url = deeplinkFromArgv(argv)
  if (url) onUrl(url)
  focus()
  return url
}
