import type * as OidcProviderModule from 'oidc-provider'

type Console = typeof console

// eslint-disable-next-line no-control-regex -- strips the ANSI colours oidc-provider adds on a TTY
const ANSI = /\x1b\[[0-9;]*m/g

/**
 * Runs `fn` with console.info/warn/log/error routed to `log`. oidc-provider prints its notices with
 * console.info (stdout) and console.warn; the CLI's `--json` mode keeps stdout for its address line.
 */
export async function withConsoleRoutedTo<T>(log: (line: string) => void, fn: () => Promise<T>): Promise<T> {
  const saved: Partial<Console> = { info: console.info, warn: console.warn, log: console.log, error: console.error }
  const route = (...args: unknown[]) =>
    log(`local sandbox (oidc-provider): ${args.map(String).join(' ').replace(ANSI, '')}`)
  console.info = route
  console.warn = route
  console.log = route
  console.error = route
  try {
    return await fn()
  } finally {
    Object.assign(console, saved)
  }
}

/**
 * Imports oidc-provider with its import-time notice (the Node runtime warning) routed to the sandbox log
 * instead of the process's console.
 */
export async function loadOidcProvider(log: (line: string) => void): Promise<typeof OidcProviderModule> {
  return withConsoleRoutedTo(log, () => import('oidc-provider'))
}
