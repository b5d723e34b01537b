import type { ContractHandlers } from '../contract/api.ts'
import type { GenerateKeysInput } from '../contract/tpp-tools.ts'
import { parseCertificates } from '../certificates/import-pem.ts'
import { AppError } from '../core/app-error.ts'
import { attempt } from '../core/result.ts'
import type { ConsoleServices } from './console-services.ts'
import { generateTppKeys } from './key-generation.ts'
import { importPostmanEnvironment, parsePostmanText } from './postman-import.ts'
import { checkAllPrerequisites } from './prerequisites-service.ts'

type ToolCalls = 'prerequisites.check' | 'certificates.generate' | 'certificates.attach' | 'environments.importPostman'

function objectInput(input: unknown, call: string): Record<string, unknown> {
  if (!input || typeof input !== 'object') {
    throw new AppError('INVALID_INPUT', {
      what: `The call ${call} got no input.`,
      cause: 'It takes an object.',
      fix: 'Send the input the contract names.',
    })
  }
  return input as Record<string, unknown>
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** The roles asked for, kept to the two there are (an unknown one is refused, not dropped). */
function roles(v: unknown): Array<'transport' | 'signing'> {
  const list = Array.isArray(v) ? v : []
  const bad = list.filter((r) => r !== 'transport' && r !== 'signing')
  if (bad.length) {
    const what = `Unknown key role ${JSON.stringify(bad[0])}.`
    throw new AppError('INVALID_INPUT', {
      what,
      cause: 'The roles are transport and signing.',
      fix: 'Ask for transport, signing, or both.',
    })
  }
  return [...new Set(list as Array<'transport' | 'signing'>)]
}

/**
 * The calls of the TPP's own tools: prerequisites against the directory, key and CSR generation (only the
 * public parts answer: CSR, certificate, JWKS, kid), the issued certificate's attachment, Postman import.
 */
export function tppToolHandlers(s: ConsoleServices): Pick<ContractHandlers, ToolCalls> {
  return {
    'prerequisites.check': (input) =>
      attempt(() => {
        const i = objectInput(input, 'prerequisites.check')
        const directoryJwks = text(i.directoryJwks)
        const target = { tppId: String(i.tppId ?? ''), environmentId: String(i.environmentId ?? '') }
        return checkAllPrerequisites(s, { ...target, ...(directoryJwks ? { directoryJwks } : {}) })
      }, 'Checking the prerequisites failed'),
    'certificates.generate': (input) =>
      attempt(async () => {
        const i = objectInput(input, 'certificates.generate')
        const days = i.validDays === undefined || i.validDays === '' ? undefined : Number(i.validDays)
        if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3650)) {
          throw new AppError('INVALID_INPUT', {
            what: `A certificate valid ${String(i.validDays)} days is not offered.`,
            cause: 'The self-signed certificate is valid 1 to 3650 whole days.',
            fix: 'Give a whole number of days, e.g. 365.',
          })
        }
        const req: GenerateKeysInput = {
          orgId: String(i.orgId ?? '').trim(),
          softwareId: String(i.softwareId ?? '').trim(),
          keyType: String(i.keyType ?? 'RSA-2048') as GenerateKeysInput['keyType'],
          roles: roles(i.roles),
          ...(text(i.tppId) ? { tppId: text(i.tppId)! } : {}),
          ...(text(i.tppName) ? { tppName: text(i.tppName)! } : {}),
          ...(text(i.organisation) ? { organisation: text(i.organisation)! } : {}),
          ...(text(i.country) ? { country: text(i.country)! } : {}),
          ...(i.selfSigned === true ? { selfSigned: true } : {}),
          ...(days !== undefined ? { validDays: days } : {}),
          ...(text(i.kid) ? { kid: text(i.kid)! } : {}),
        }
        if (req.tppId) s.tpps.record(req.tppId)
        const out = await generateTppKeys(s.tpps, req)
        return { ...out, jwks: { keys: out.jwks.keys.map((k) => ({ ...k })) } }
      }, 'Generating the keys failed'),
    'certificates.attach': (input) =>
      attempt(() => {
        const i = objectInput(input, 'certificates.attach')
        const role =
          i.role === 'signing' ? 'signing' : i.role === undefined || i.role === 'transport' ? 'transport' : undefined
        if (!role) {
          const what = `Unknown role ${JSON.stringify(i.role)}.`
          throw new AppError('INVALID_INPUT', {
            what,
            cause: 'A certificate is a transport or a signing certificate.',
            fix: 'Choose transport or signing.',
          })
        }
        const certificatePem = parseCertificates(String(i.certificatePem ?? ''), 'the issued certificate')[0]!.toString(
          'pem',
        )
        return s.tpps.attachCertificate(String(i.tppId ?? ''), role, certificatePem, text(i.kid))
      }, 'Attaching the certificate failed'),
    'environments.importPostman': (input) =>
      attempt(() => {
        const i = objectInput(input, 'environments.importPostman')
        const tls = i.tlsVerify === undefined ? undefined : String(i.tlsVerify)
        return importPostmanEnvironment(
          s,
          parsePostmanText(String(i.json ?? ''), 'The Postman environment'),
          'The Postman environment',
          {
            ...(text(i.name) ? { name: text(i.name)! } : {}),
            ...(text(i.tppId) ? { tppId: text(i.tppId)! } : {}),
            ...(tls ? { tlsVerify: tls as 'off' | 'system' } : {}),
          },
        )
      }, 'Importing the Postman environment failed'),
  }
}
