import type { ContractHandlers } from '../contract/api.ts'
import type { GenerateKeysInput } from '../contract/tpp-tools.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { AppError } from '../core/app-error.ts'
import { attempt } from '../core/result.ts'
import type { ConsoleServices } from './console-services.ts'
import { generateTppKeys } from './key-generation.ts'
import { importPostmanEnvironment, parsePostmanText } from './postman-import.ts'
import { checkAllPrerequisites } from './prerequisites-service.ts'

export type ToolCalls =
  'prerequisites.check' | 'certificates.generate' | 'certificates.attach' | 'environments.importPostman'

/** A trimmed string, or undefined when it is absent or blank. */
const text = (v: string | undefined): string | undefined => (v?.trim() ? v.trim() : undefined)

/**
 * The calls of the TPP's own tools: prerequisites against the directory, key and CSR generation (only the
 * public parts answer: CSR, certificate, JWKS, kid), the issued certificate's attachment, Postman import.
 */
export function tppToolHandlers(s: ConsoleServices): Pick<ContractHandlers, ToolCalls> {
  return {
    'prerequisites.check': (input) =>
      attempt(() => {
        const directoryJwks = text(input.directoryJwks)
        const target = { tppId: input.tppId, environmentId: input.environmentId }
        return checkAllPrerequisites(s, { ...target, ...(directoryJwks ? { directoryJwks } : {}) })
      }, 'Checking the prerequisites failed'),
    'certificates.generate': (input) =>
      attempt(async () => {
        const days = input.validDays
        if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3650)) {
          throw new AppError('INVALID_INPUT', {
            what: `A certificate valid ${days} days is not offered.`,
            cause: 'The self-signed certificate is valid 1 to 3650 whole days.',
            fix: 'Give a whole number of days, e.g. 365.',
          })
        }
        const optional = { tppId: input.tppId, tppName: input.tppName, organisation: input.organisation }
        const req: GenerateKeysInput = {
          orgId: input.orgId.trim(),
          softwareId: input.softwareId.trim(),
          keyType: input.keyType,
          roles: [...new Set(input.roles)],
          ...Object.fromEntries(
            Object.entries({ ...optional, country: input.country, kid: input.kid })
              .map(([k, v]) => [k, text(v)])
              .filter(([, v]) => v !== undefined),
          ),
          ...(input.selfSigned === true ? { selfSigned: true } : {}),
          ...(days !== undefined ? { validDays: days } : {}),
        }
        if (req.tppId) s.tpps.record(req.tppId)
        const out = await generateTppKeys(s.tpps, req)
        return { ...out, jwks: { keys: out.jwks.keys.map((k) => ({ ...k })) } }
      }, 'Generating the keys failed'),
    'certificates.attach': (input) =>
      attempt(() => {
        const certificatePem = parseCertificates(input.certificatePem, 'the issued certificate')[0]!.toString('pem')
        return s.tpps.attachCertificate(input.tppId, input.role, certificatePem, text(input.kid))
      }, 'Attaching the certificate failed'),
    'environments.importPostman': (input) =>
      attempt(
        () =>
          importPostmanEnvironment(
            s,
            parsePostmanText(input.json, 'The Postman environment'),
            'The Postman environment',
            {
              ...(text(input.name) ? { name: text(input.name)! } : {}),
              ...(text(input.tppId) ? { tppId: text(input.tppId)! } : {}),
              ...(input.tlsVerify ? { tlsVerify: input.tlsVerify } : {}),
            },
          ),
        'Importing the Postman environment failed',
      ),
  }
}
