import { spawn as nodeSpawn } from 'node:child_process'

/** The command that hands a URL to the system's browser: `open` on macOS, `rundll32` on Windows, `xdg-open` elsewhere. */
export function browserCommand(platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [] }
  // Not `cmd /c start`: cmd would read the URL's `&` as the end of a command.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler'] }
  return { command: 'xdg-open', args: [] }
}

/** What starts a process (tests give their own). */
export type Spawner = typeof nodeSpawn

/**
 * Opens `url` in the system's browser, detached from this process. A failure is never an error of the
 * command: `hint` gets one sentence saying the browser did not open (the URL is printed anyway).
 */
export function openInBrowser(
  url: string,
  hint: (line: string) => void,
  options: { platform?: NodeJS.Platform; spawn?: Spawner } = {},
): void {
  const { command, args } = browserCommand(options.platform)
  const unopened = (why: string) =>
    hint(`The browser did not open (${command} ${why}): open the URL above yourself, or pass --no-open.`)
  try {
    const child = (options.spawn ?? nodeSpawn)(command, [...args, url], { detached: true, stdio: 'ignore' })
    child.once('error', (err: NodeJS.ErrnoException) =>
      unopened(err.code === 'ENOENT' ? 'is not installed' : `failed: ${err.code ?? err.message}`),
    )
    child.once('exit', (code) => {
      if (code) unopened(`exited with ${code}`)
    })
    child.unref()
  } catch (err) {
    unopened(`failed: ${(err as Error).message}`)
  }
}
