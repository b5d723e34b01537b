import type { ClientProfile } from './types.ts'

/** The four names a client may give in the non-standard registration claim `sandbox_profile`. */
export const PROFILE_NAMES = ['strict', 'strict-headless', 'permissive', 'permissive-headless'] as const
export type ProfileName = (typeof PROFILE_NAMES)[number]

/** The registration claim that picks a client profile (sandbox only; production ignores it). */
export const PROFILE_CLAIM = 'sandbox_profile'

/** The profile a name stands for. */
export function profileFromName(name: ProfileName): ClientProfile {
  return { security: name.startsWith('strict') ? 'strict' : 'permissive', headless: name.endsWith('-headless') }
}

/** The name of a profile, as the registration response echoes it in `sandbox_profile`. */
export function profileName(profile: ClientProfile): ProfileName {
  return `${profile.security}${profile.headless ? '-headless' : ''}` as ProfileName
}

/** True when `value` is one of the four profile names. */
export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (PROFILE_NAMES as readonly string[]).includes(value)
}

/**
 * The profile a client gets when it names none: permissive as soon as it registers something only the
 * permissive profile allows (client_secret_basic, `none` request objects, application_type mobile), else
 * strict; never headless.
 */
export function defaultProfile(
  tokenEndpointAuthMethod: string,
  requestObjectSigningAlg: string,
  applicationType = 'web',
): ClientProfile {
  const permissive =
    tokenEndpointAuthMethod === 'client_secret_basic' || requestObjectSigningAlg === 'none' || applicationType !== 'web'
  return { security: permissive ? 'permissive' : 'strict', headless: false }
}
