import type { TppIdentityDto } from '../contract/environments.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import type { TppRecord } from './persistence/settings-schema.ts'

/**
 * A stored TPP identity as the contract carries it: its public parts, each certificate inspected at `now`
 * and the software statement decoded. Keys appear by their public facts only (the record holds no key).
 */
export function tppIdentityDto(r: TppRecord, now: Date): TppIdentityDto {
  const inspect = (pem: string | undefined) => (pem ? inspectCertificate(parseCertificates(pem)[0]!, now) : undefined)
  let softwareStatement
  if (r.ssa) {
    try {
      softwareStatement = parseSoftwareStatement(r.ssa).statement
    } catch {
      softwareStatement = undefined
    }
  }
  return {
    id: r.id,
    name: r.name,
    ...(r.orgId ? { orgId: r.orgId } : {}),
    ...(r.softwareId ? { softwareId: r.softwareId } : {}),
    ...(r.ssa ? { ssa: r.ssa, softwareStatement } : {}),
    ...(r.transport
      ? { transport: { key: r.transport.keyInfo, certificate: inspect(r.transport.certificatePem) } }
      : {}),
    ...(r.signing
      ? {
          signing: {
            kid: r.signing.kid,
            key: r.signing.keyInfo,
            ...(r.signing.certificatePem ? { certificate: inspect(r.signing.certificatePem) } : {}),
          },
        }
      : {}),
    ...(r.rootCaPem ? { rootCa: inspect(r.rootCaPem) } : {}),
    ...(r.issuingCaPem ? { issuingCa: inspect(r.issuingCaPem) } : {}),
    redirectUris: r.redirectUris,
    createdAt: r.createdAt,
  }
}
