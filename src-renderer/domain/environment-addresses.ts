/**
 * The real addresses of an environment, whatever its kind: the bank's spec writes them as `{base_url}` and
 * `{auth_url}` plus paths; the environment page shows each one resolved, never the placeholders.
 */
import type { EnvironmentDto } from '../../src-main/contract/environments.ts'

export interface EnvironmentAddress {
  /** What it is, in words. */
  label: string
  /** The full URL, or undefined when the environment lacks the part it is built from. */
  url?: string
  /** Where it comes from (`{base_url}` + the AIS path…), for the reader who knows the spec. */
  from: string
  /** Set when the address needs the client's mutual TLS. */
  mtls?: boolean
}

/** `base` + `path`, with exactly one slash between them; undefined when the base is empty or not a URL. */
export function joinUrl(base: string, path: string): string | undefined {
  const b = base.trim()
  if (!b) return undefined
  try {
    const url = new URL(b)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  } catch {
    return undefined
  }
  const p = path.trim()
  if (!p) return b.replace(/\/+$/, '')
  return `${b.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`
}

/**
 * Every address the console uses in an environment: the resource server, the authorisation server and its
 * discovery document, registration, AIS and PIS bases, the sandbox's /o3 helper, and (for the embedded
 * local sandbox, when it runs) the directory.
 */
export function environmentAddresses(
  env: Pick<EnvironmentDto, 'kind' | 'baseUrl' | 'authUrl' | 'apiPaths'>,
  localSandbox?: { directoryUrl: string },
): EnvironmentAddress[] {
  const out: EnvironmentAddress[] = [
    { label: 'Resource server', url: joinUrl(env.baseUrl, ''), from: '{base_url}', mtls: true },
    { label: 'Authorisation server (issuer)', url: joinUrl(env.authUrl, ''), from: '{auth_url}' },
    {
      label: 'OpenID discovery',
      url: joinUrl(env.authUrl, '/.well-known/openid-configuration'),
      from: '{auth_url}/.well-known/openid-configuration',
    },
    {
      label: 'Registration (DCR)',
      url: joinUrl(env.baseUrl, env.apiPaths.registration),
      from: `{base_url}${env.apiPaths.registration}`,
      mtls: true,
    },
    {
      label: 'Account information (AIS)',
      url: joinUrl(env.baseUrl, env.apiPaths.ais),
      from: `{base_url}${env.apiPaths.ais}`,
      mtls: true,
    },
    {
      label: 'Payment initiation (PIS)',
      url: joinUrl(env.baseUrl, env.apiPaths.pis),
      from: `{base_url}${env.apiPaths.pis}`,
      mtls: true,
    },
  ]
  if (env.apiPaths.o3 && env.kind !== 'production')
    out.push({
      label: 'Sandbox /o3 helper',
      url: joinUrl(env.baseUrl, env.apiPaths.o3),
      from: `{base_url}${env.apiPaths.o3}`,
      mtls: true,
    })
  if (env.kind === 'local-sandbox' && localSandbox)
    out.push({
      label: 'Directory (local)',
      url: joinUrl(localSandbox.directoryUrl, ''),
      from: "the local sandbox's directory",
    })
  return out
}
