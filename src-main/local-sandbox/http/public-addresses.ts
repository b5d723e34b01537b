import { isIP } from 'node:net'
import type { SandboxAddresses } from '../context.ts'

/** Where the sandbox listens and what it calls itself in every URL it writes. */
export interface PublicEndpoint {
  /** The host name or IP address in every URL (discovery, Links, JWKS URLs, SSAs, starter kits). */
  host: string
  /** `{base_url}`'s port in those URLs; `{auth_url}` is port + 1, the directory port + 2. Absent: the ports listened on. */
  port?: number
}

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i

/** Why `host` cannot be the public host; undefined when it can (a DNS name, an IPv4 or an IPv6 address). */
export function publicHostProblem(host: string): string | undefined {
  if (isIP(host)) return undefined
  if (DNS_NAME.test(host) && !/^\d+(\.\d+)*$/.test(host)) return undefined
  return `"${host}" is neither a DNS name (letters, digits and hyphens in dot-separated labels) nor an IP address`
}

/** True for the loopback addresses (only this machine reaches a server bound to one). */
export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address)
}

/** `host` as it stands in a URL (an IPv6 address in brackets). */
const urlHost = (host: string) => (isIP(host) === 6 ? `[${host}]` : host)

/** The three origins' URLs: the public host, and the public ports or else the ports listened on. */
export function publicAddresses(endpoint: PublicEndpoint, listening: [number, number, number]): SandboxAddresses {
  const ports = endpoint.port === undefined ? listening : [endpoint.port, endpoint.port + 1, endpoint.port + 2]
  const origin = (port: number) => `https://${urlHost(endpoint.host)}:${port}`
  return { baseUrl: origin(ports[0]!), authUrl: origin(ports[1]!), directoryUrl: origin(ports[2]!) }
}
