/** How the PSU's return reaches the console, by host and environment, and what each way means. */
import type { CaptureMode } from '../../src-main/contract/api.ts'
import type { EnvironmentKind } from '../../src-main/contract/environments.ts'

export const CAPTURE_LABELS: Record<CaptureMode, string> = {
  headless: 'Headless (the sandbox approves as its test PSU at once)',
  loopback: 'Browser tab returning to the console (loopback)',
  'auth-window': 'Desktop authorisation window',
  deeplink:
    "Deeplink return (the console's ob-console:// scheme, or the bank app in production): received by the desktop app, or pasted",
  pasted: 'Open the URL yourself, paste the return',
}

/** The capture modes that make sense here. */
export function captureModes(host: 'electron' | 'web', kind: EnvironmentKind | undefined): CaptureMode[] {
  const modes: CaptureMode[] = []
  if (kind === 'local-sandbox' || kind === 'bank-sandbox') modes.push('headless')
  if (host === 'electron') modes.push('auth-window')
  modes.push('loopback')
  modes.push('deeplink')
  modes.push('pasted')
  return modes
}

/**
 * The default capture: headless on the local sandbox (unless the client cannot: `headlessAllowed` false), the
 * auth window in the desktop app, else loopback (or the deeplink in production).
 */
export function defaultCapture(
  host: 'electron' | 'web',
  kind: EnvironmentKind | undefined,
  headlessAllowed = true,
): CaptureMode {
  if (kind === 'local-sandbox' && headlessAllowed) return 'headless'
  if (kind === 'production') return 'deeplink'
  return host === 'electron' ? 'auth-window' : 'loopback'
}

/**
 * The ways the guide offers for the test PSU to approve, each as the guide words it: headless on the local
 * sandbox, a login in the desktop's authorisation window or a browser tab, or a pasted return URL.
 */
export function guideCaptureChoices(host: 'electron' | 'web', local: boolean): Array<[CaptureMode, string]> {
  const out: Array<[CaptureMode, string]> = []
  if (local) out.push(['headless', 'Headless: the sandbox approves at once as its test PSU'])
  out.push(
    host === 'electron'
      ? ['auth-window', 'Log in as a test PSU in the authorisation window']
      : ['loopback', 'Log in as a test PSU in a browser tab'],
  )
  out.push(['pasted', 'Open the authorisation page myself and paste the URL it returns to'])
  return out
}

/** The local sandbox's client profile claim (`sandbox_profile`) for a registration form. */
export function sandboxProfile(
  form: { tokenEndpointAuthMethod?: string; requestObjectSigningAlg?: string },
  headless: boolean,
): string {
  const permissive = form.tokenEndpointAuthMethod === 'client_secret_basic' || form.requestObjectSigningAlg === 'none'
  return `${permissive ? 'permissive' : 'strict'}${headless ? '-headless' : ''}`
}
