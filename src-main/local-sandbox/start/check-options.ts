import { checkFaultRules } from '../faults/fault-set.ts'
import { adminTokenProblem } from '../http/admin-guard.ts'
import { TRANSPORT_CERTIFICATES, type TransportCertificates } from '../http/peer-certificate.ts'
import { publicHostProblem } from '../http/public-addresses.ts'
import type { SandboxOptions } from '../sandbox-api.ts'

/** The start options checked, with their defaults. */
export interface CheckedOptions {
  /** The fault rules given at start, checked; undefined when none were given (the store's stay). */
  initialRules: ReturnType<typeof checkFaultRules> | undefined
  tlsMode: 'explain' | 'handshake'
  transportCertificates: TransportCertificates
}

/**
 * Checks the options a sandbox is started with, before anything is written or a port is taken: a bad fault
 * rule throws FaultRuleError, any other bad option a RangeError naming it.
 */
export function checkStartOptions(options: SandboxOptions): CheckedOptions {
  const initialRules = options.faults === undefined ? undefined : checkFaultRules(options.faults)
  const tokenProblem = options.adminToken === undefined ? undefined : adminTokenProblem(options.adminToken)
  if (tokenProblem) throw new RangeError(`the admin token cannot be used: ${tokenProblem}`)
  const hostProblem = options.publicHost === undefined ? undefined : publicHostProblem(options.publicHost)
  if (hostProblem) throw new RangeError(`publicHost cannot be used: ${hostProblem}`)
  if (
    options.publicPort !== undefined &&
    !(Number.isInteger(options.publicPort) && options.publicPort >= 1 && options.publicPort <= 65533)
  )
    throw new RangeError(
      `publicPort must be a whole number from 1 to 65533 (the next two ports are the other origins'), got ${options.publicPort}`,
    )
  const transportCertificates = options.transportCertificates ?? 'self-signed-allowed'
  if (!TRANSPORT_CERTIFICATES.includes(transportCertificates))
    throw new RangeError(
      `transportCertificates must be ${TRANSPORT_CERTIFICATES.join(' or ')}, got ${JSON.stringify(transportCertificates)}`,
    )
  return { initialRules, tlsMode: options.tlsMode ?? 'explain', transportCertificates }
}
