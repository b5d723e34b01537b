import { webcrypto } from 'node:crypto'
import { calculateJwkThumbprint, type JWK } from 'jose'
import {
  createCertificateRequest,
  createSelfSignedCertificate,
  openBankingSubject,
  type GeneratedKeyType,
} from '../certificates/generate.ts'
import { rfc4514 } from '../certificates/subject-dn.ts'
import { GENERATED_KEY_TYPES, type GenerateKeysInput } from '../contract/tpp-tools.ts'
import { AppError } from '../core/app-error.ts'
import type { TppsService } from './tpps-service.ts'

export { GENERATED_KEY_TYPES, type GenerateKeysInput }

/** The public parts of what was generated; the private keys went into the encrypted store. */
export interface GeneratedKeysDto {
  tppId: string
  subjectDn: string
  transport?: { csrPem: string; certificatePem?: string; waitsForCertificate: boolean }
  signing?: { csrPem: string; kid: string }
  /** Public keys as a JWKS (transport `use: tls` with its thumbprint as kid, signing `use: sig` with its kid). */
  jwks: { keys: JWK[] }
}

const ORG_ID = /^[A-Za-z0-9]{15,18}$/
const SOFTWARE_ID = /^[A-Za-z0-9]{1,22}$/

async function publicJwk(key: webcrypto.CryptoKey, extra: Partial<JWK>): Promise<JWK> {
  const { kty, n, e, crv, x, y } = (await webcrypto.subtle.exportKey('jwk', key)) as JWK
  return { kty, ...(n ? { n, e } : { crv, x, y }), ...extra } as JWK
}

/** The ids, key type and roles asked for, checked before any key is made: each problem its own coded error. */
function checkGenerateInput(input: GenerateKeysInput): void {
  if (!ORG_ID.test(input.orgId))
    throw new AppError('INVALID_INPUT', {
      what: `"${input.orgId}" is not an organisation id.`,
      cause: 'Directory organisation ids are 15 to 18 letters and digits (e.g. 0015800001041RHAAY).',
      fix: 'Copy the organisation id from the directory.',
    })
  if (!SOFTWARE_ID.test(input.softwareId))
    throw new AppError('INVALID_INPUT', {
      what: `"${input.softwareId}" is not a software id.`,
      cause: 'Software statement ids are up to 22 letters and digits.',
      fix: "Copy the software id from the directory's software statement.",
    })
  if (!GENERATED_KEY_TYPES.includes(input.keyType))
    throw new AppError('KEY_UNSUPPORTED', {
      what: `Key type "${input.keyType}" is not offered.`,
      cause: `The console generates ${GENERATED_KEY_TYPES.join(', ')}.`,
      fix: 'Pick one of them.',
    })
  if (!input.roles.length)
    throw new AppError('INVALID_INPUT', {
      what: 'No key to generate.',
      cause: 'Roles are transport and signing.',
      fix: 'Ask for transport, signing, or both.',
    })
  if (input.roles.includes('signing') && !input.keyType.startsWith('RSA'))
    throw new AppError('KEY_UNSUPPORTED', {
      what: 'The signing key must be RSA.',
      cause: 'Open Banking signs with PS256 (RSASSA-PSS), which needs an RSA key.',
      fix: 'Use RSA-2048 or RSA-3072 for the signing key (EC-P256 suits a transport key).',
    })
  if (input.selfSigned && !input.roles.includes('transport'))
    throw new AppError('INVALID_INPUT', {
      what: 'A self-signed certificate is a transport certificate.',
      cause: 'The role transport was not asked for.',
      fix: 'Add the transport role.',
    })
}

/**
 * Generates transport and signing key pairs and CSRs with the Open Banking subject layout (`C`, `O`,
 * `OU` = organisation id, `CN` = software id), and optionally a self-signed transport certificate for the
 * bank's sandbox. Private keys go straight into the identity in the encrypted store: the signing key is
 * usable at once (the kid is the directory's, or the key's thumbprint until then); a transport key waits
 * for its certificate unless it is self-signed.
 */
export async function generateTppKeys(tpps: TppsService, input: GenerateKeysInput): Promise<GeneratedKeysDto> {
  checkGenerateInput(input)
  const tppId =
    input.tppId ??
    tpps.save({ name: input.tppName?.trim() || `Generated ${input.softwareId}`, orgId: input.orgId, redirectUris: [] })
      .id
  const subject = openBankingSubject({
    orgId: input.orgId,
    softwareId: input.softwareId,
    ...(input.organisation ? { organisation: input.organisation } : {}),
    ...(input.country ? { country: input.country } : {}),
  })
  const keyType: GeneratedKeyType = input.keyType
  const jwks: JWK[] = []
  const out: GeneratedKeysDto = { tppId, subjectDn: '', jwks: { keys: jwks } }
  if (input.roles.includes('transport')) {
    const req = await createCertificateRequest({ subject, keyType })
    out.subjectDn = rfc4514(req.csr.subjectName)
    let certificatePem: string | undefined
    if (input.selfSigned) {
      // The self-signed certificate is over the CSR's own key pair: the same key for the sandbox and the directory.
      const self = await createSelfSignedCertificate(
        { subject, keyType, validDays: input.validDays ?? 365, extendedKeyUsages: ['clientAuth'] },
        new Date(),
        req.keys,
      )
      await tpps.importPem({ tppId, role: 'transport', certificatePem: self.certPem, keyPem: req.keyPem })
      certificatePem = self.certPem
    } else {
      await tpps.holdPendingKey(tppId, 'transport', req.keyPem)
    }
    // A kid for the transport key too (its RFC 7638 thumbprint): a JWKS whose keys all have one can be
    // addressed key by key, and the directory's tooling expects it.
    const tls = await publicJwk(req.keys.publicKey, { use: 'tls' })
    jwks.push({ ...tls, kid: await calculateJwkThumbprint(tls, 'sha256') })
    out.transport = {
      csrPem: req.csrPem,
      ...(certificatePem ? { certificatePem } : {}),
      waitsForCertificate: !input.selfSigned,
    }
  }
  if (input.roles.includes('signing')) {
    const req = await createCertificateRequest({ subject, keyType })
    out.subjectDn ||= rfc4514(req.csr.subjectName)
    const dto = await tpps.importPem({
      tppId,
      role: 'signing',
      keyPem: req.keyPem,
      ...(input.kid ? { kid: input.kid } : {}),
    })
    const kid = dto.signing!.kid
    out.signing = { csrPem: req.csrPem, kid }
    jwks.push(await publicJwk(req.keys.publicKey, { use: 'sig', alg: 'PS256', kid }))
  }
  return out
}
