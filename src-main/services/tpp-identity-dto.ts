import { X509Certificate } from 'node:crypto'
import type { TppIdentityDto } from '../contract/environments.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { inspectCertificate } from '../certificates/inspect.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import type { TppRecord } from './persistence/settings-schema.ts'
import { lazyProperty } from '../plumbing/lazy-property.ts'

/** Whether Node's own parser reads the first certificate of `pem`. */
function parsesNatively(pem: string): boolean {
  try {
    new X509Certificate(pem)
    return true
  } catch {
    return false
  }
}

type Transport = NonNullable<TppIdentityDto['transport']>
type Signing = NonNullable<TppIdentityDto['signing']>

/**
 * A stored TPP identity as the contract carries it: its public parts, each certificate inspected at `now`
 * and the software statement decoded. Keys appear by their public facts only (the record holds no key).
 *
 * The certificates are inspected when first read (`lazyProperty`): parsing three of them took 20-45 ms of a
 * command line run's onboarding, which reads only the identity's ids; a window's call reads them all as its
 * answer is sent.
 */
export function tppIdentityDto(r: TppRecord, now: Date): TppIdentityDto {
  const inspected = <T extends object, K extends keyof T>(target: T, key: K, pem: string | undefined): T => {
    if (!pem) return target
    // A certificate that does not parse fails here, with its coded error, as before (Node's parser is quick).
    if (!parsesNatively(pem)) parseCertificates(pem)
    return lazyProperty(target, key, () => inspectCertificate(parseCertificates(pem)[0]!, now) as T[K])
  }
  const transport = (t: NonNullable<TppRecord['transport']>): Transport =>
    inspected<Transport, 'certificate'>({ key: t.keyInfo, certificate: undefined }, 'certificate', t.certificatePem)
  const signing = (g: NonNullable<TppRecord['signing']>): Signing =>
    inspected<Signing, 'certificate'>({ kid: g.kid, key: g.keyInfo }, 'certificate', g.certificatePem)
  let softwareStatement
  if (r.ssa) {
    try {
      softwareStatement = parseSoftwareStatement(r.ssa).statement
    } catch {
      softwareStatement = undefined
    }
  }
  const dto: TppIdentityDto = {
    id: r.id,
    name: r.name,
    ...(r.orgId ? { orgId: r.orgId } : {}),
    ...(r.softwareId ? { softwareId: r.softwareId } : {}),
    ...(r.ssa ? { ssa: r.ssa, softwareStatement } : {}),
    ...(r.transport ? { transport: transport(r.transport) } : {}),
    ...(r.signing ? { signing: signing(r.signing) } : {}),
    // Held in place here, inspected when read (below).
    ...(r.rootCaPem ? { rootCa: undefined } : {}),
    ...(r.issuingCaPem ? { issuingCa: undefined } : {}),
    redirectUris: r.redirectUris,
    createdAt: r.createdAt,
  }
  inspected(dto, 'rootCa', r.rootCaPem)
  return inspected(dto, 'issuingCa', r.issuingCaPem)
}
