import type { CaptureMode } from '../contract/api.ts'
import { headlessBlockingProfile, type EnvironmentDto } from '../contract/environments.ts'
import { AppError } from '../core/app-error.ts'

/**
 * A headless capture refused before the flow starts when the console can tell it cannot work
 * (`headlessBlockingProfile`: a local sandbox client whose `sandbox_profile` is not headless). Elsewhere the bank
 * alone knows; the capture step then names the page it met (never its markup).
 */
export function checkHeadlessCapture(
  capture: CaptureMode,
  env: Pick<EnvironmentDto, 'kind' | 'name'>,
  client: { clientId: string; registration: Record<string, unknown> },
): void {
  const profile = capture === 'headless' ? headlessBlockingProfile(env.kind, client) : undefined
  if (!profile) return
  throw new AppError('INVALID_INPUT', {
    what: `Client ${client.clientId} cannot authorise headless on ${env.name}.`,
    cause: `It is registered with sandbox_profile "${profile}": the sandbox sends its PSU to the login page, where a headless call stops.`,
    fix: `Pick a client registered with sandbox_profile "${profile}-headless" (or register one), or let the PSU log in: the loopback capture, the auth window or a pasted URL.`,
  })
}
