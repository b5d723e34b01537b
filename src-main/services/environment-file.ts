import { readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import type { EnvironmentDto, EnvironmentInput, TokenEndpointAuthMethod } from '../contract/environments.ts'
import { AppError } from '../core/app-error.ts'
import { DEFAULT_API_PATHS, type EnvironmentsService } from './environments-service.ts'
import type { RegistrationService } from './registration-service.ts'
import type { TppsService } from './tpps-service.ts'
import { looksLikePrivateKey } from '../core/private-key-scan.ts'
import { isSecretName } from '../core/secret-names.ts'

/** The format tag of an environment file. */
export const ENVIRONMENT_FILE_FORMAT = 'ob-console.environment/1'

/**
 * An environment a team can commit: addresses, TLS verification, paths (relative to the file) of the
 * certificates, keys or PKCS#12 files, the software statement, the client id and its auth method. Secrets
 * are never inline: passphrases and client secrets are named by the environment variable holding them.
 */
export interface EnvironmentFile {
  format: typeof ENVIRONMENT_FILE_FORMAT
  name: string
  kind: 'bank-sandbox' | 'production'
  baseUrl: string
  authUrl: string
  apiPaths?: Partial<EnvironmentDto['apiPaths']>
  appScheme?: string
  tls: { verify: 'exact-ca' | 'off' | 'system'; caFile?: string }
  allowedAuthMethods?: TokenEndpointAuthMethod[]
  identity?: {
    name?: string
    transport?: KeyMaterialRef
    signing?: KeyMaterialRef & { kid?: string }
    softwareStatementFile?: string
    caFiles?: string[]
    redirectUris?: string[]
  }
  client?: { clientId: string; authMethod?: TokenEndpointAuthMethod; secretEnv?: string }
}

/** Key material by path: a certificate and key in PEM, or a PKCS#12 file; passphrases from the environment. */
export interface KeyMaterialRef {
  certificateFile?: string
  keyFile?: string
  pkcs12File?: string
  passphraseEnv?: string
}

function bad(file: string, cause: string, fix: string): AppError {
  return new AppError('INVALID_INPUT', { what: `The environment file ${file} is not valid.`, cause, fix })
}

/** Refuses a file holding a PEM private key or a secret inline, naming where (never echoing the value). */
export function assertNoInlineSecrets(value: unknown, file: string, path = ''): void {
  if (typeof value === 'string') {
    // Private key material in any encoding (PEM, base64 of a PEM, base64 DER), as the redactor finds it.
    if (looksLikePrivateKey(value)) {
      throw new AppError('SECRET_INLINE', {
        what: `The environment file ${file} holds a private key inline at ${path || '(root)'}.`,
        cause: 'Environment files are made to be committed; a key in one is a leaked key.',
        fix: 'Put the key in its own file (kept out of version control) and give its path as keyFile; remove the key from the file and rotate it if the file was shared.',
      })
    }
    return
  }
  if (Array.isArray(value)) return value.forEach((v, i) => assertNoInlineSecrets(v, file, `${path}[${i}]`))
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // The names the redactor masks (secret, passphrase, password, tokens, private keys…), and a PKCS#12 inline.
      if ((isSecretName(k) || /^pkcs12_?base64$/i.test(k)) && v !== undefined && v !== null && v !== '') {
        throw new AppError('SECRET_INLINE', {
          what: `The environment file ${file} holds a secret inline (${path ? `${path}.` : ''}${k}).`,
          cause: 'Environment files are made to be committed; secrets in them leak.',
          fix: `Remove "${k}" and name the environment variable that holds it instead (passphraseEnv, client.secretEnv).`,
        })
      }
      assertNoInlineSecrets(v, file, path ? `${path}.${k}` : k)
    }
  }
}

/** Reads and checks an environment file; paths stay as written (relative to the file). */
export function parseEnvironmentFile(text: string, file: string): EnvironmentFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw bad(
      file,
      `It is not JSON (${(err as Error).message}).`,
      'Write it as JSON; see docs/console.md, "Environment files".',
    )
  }
  assertNoInlineSecrets(value, file)
  const f = value as EnvironmentFile
  if (!f || typeof f !== 'object' || Array.isArray(f))
    throw bad(
      file,
      `It is ${Array.isArray(f) ? 'a JSON array' : `JSON ${f === null ? 'null' : typeof f}`}, not an object.`,
      'An environment file is one JSON object {"format": …, "name": …}; see docs/console.md, "Environment files".',
    )
  if (f.format !== ENVIRONMENT_FILE_FORMAT)
    throw bad(file, `format is ${JSON.stringify(f.format)}.`, `Set "format": "${ENVIRONMENT_FILE_FORMAT}".`)
  if (typeof f.name !== 'string' || !f.name.trim())
    throw bad(file, 'It has no name.', 'Give it a "name", e.g. "Bank sandbox".')
  if (f.kind !== 'bank-sandbox' && f.kind !== 'production')
    throw bad(
      file,
      `kind is ${JSON.stringify(f.kind)}.`,
      'kind is "bank-sandbox" or "production" (the local sandbox needs no file: --env local).',
    )
  for (const k of ['baseUrl', 'authUrl'] as const)
    if (typeof f[k] !== 'string') throw bad(file, `${k} is missing.`, `Give ${k} as an https URL.`)
  if (!f.tls || !['exact-ca', 'off', 'system'].includes(f.tls.verify))
    throw bad(
      file,
      'tls.verify is missing or unknown.',
      'Set tls.verify to "exact-ca" (with tls.caFile), "off" (the bank\'s sandbox) or "system".',
    )
  if (f.tls.verify === 'exact-ca' && !f.tls.caFile)
    throw bad(
      file,
      'tls.verify is "exact-ca" but tls.caFile is missing.',
      "Give the path of the bank's CA bundle as tls.caFile.",
    )
  if (f.client && typeof f.client.clientId !== 'string')
    throw bad(file, 'client.clientId is missing.', 'Give the client id the bank registered, or leave "client" out.')
  return f
}

export function readEnvironmentFile(path: string): EnvironmentFile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new AppError('NOT_FOUND', {
      what: `The environment file ${path} could not be read.`,
      cause: (err as NodeJS.ErrnoException).code ?? (err as Error).message,
      fix: 'Check the path (give --env a saved environment name, "local", or the path of a JSON environment file).',
    })
  }
  return parseEnvironmentFile(text, path)
}

function readRef(base: string, rel: string, what: string): string {
  const path = isAbsolute(rel) ? rel : resolve(base, rel)
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    throw new AppError('NOT_FOUND', {
      what: `The ${what} file ${path} could not be read.`,
      cause: (err as NodeJS.ErrnoException).code ?? (err as Error).message,
      fix: 'Paths in an environment file are relative to the file; check the path.',
    })
  }
}

function passphrase(ref: KeyMaterialRef, env: NodeJS.ProcessEnv): string | undefined {
  if (!ref.passphraseEnv) return undefined
  const v = env[ref.passphraseEnv]
  if (v === undefined)
    throw new AppError('PASSPHRASE_REQUIRED', {
      what: `The environment variable ${ref.passphraseEnv} is not set.`,
      cause: 'The environment file names it as holding the passphrase.',
      fix: `Set ${ref.passphraseEnv} before running the command.`,
    })
  return v
}

export interface ImportedEnvironment {
  environment: EnvironmentDto
  tppId?: string
  clientId?: string
}

type Identity = NonNullable<EnvironmentFile['identity']>

/** The transport and signing key material of the file's identity, from PKCS#12 files or PEM files. */
async function importKeyMaterial(
  tppId: string,
  identity: Identity,
  base: string,
  tpps: TppsService,
  processEnv: NodeJS.ProcessEnv,
): Promise<void> {
  const roles = [
    ['transport', identity.transport],
    ['signing', identity.signing],
  ] as const
  for (const [role, ref] of roles) {
    if (!ref) continue
    const kid = role === 'signing' ? (ref as { kid?: string }).kid : undefined
    if (ref.pkcs12File) {
      const der = readFileSync(isAbsolute(ref.pkcs12File) ? ref.pkcs12File : resolve(base, ref.pkcs12File))
      await tpps.importPkcs12({
        tppId,
        role,
        pkcs12Base64: der.toString('base64'),
        passphrase: passphrase(ref, processEnv) ?? '',
        ...(kid ? { kid } : {}),
      })
    } else {
      const pass = passphrase(ref, processEnv)
      await tpps.importPem({
        tppId,
        role,
        ...(ref.certificateFile ? { certificatePem: readRef(base, ref.certificateFile, `${role} certificate`) } : {}),
        ...(ref.keyFile ? { keyPem: readRef(base, ref.keyFile, `${role} key`) } : {}),
        ...(pass !== undefined ? { passphrase: pass } : {}),
        ...(kid ? { kid } : {}),
      })
    }
  }
}

/** The file's identity into the TPP identity of that name (or the environment's), with its keys, statement and CAs. */
async function importIdentity(
  environmentName: string,
  identity: Identity,
  existingTppId: string | undefined,
  base: string,
  deps: { tpps: TppsService },
  processEnv: NodeJS.ProcessEnv,
): Promise<string> {
  const idName = identity.name?.trim() || `${environmentName.trim()} identity`
  const known = existingTppId
    ? deps.tpps.list().find((t) => t.id === existingTppId)
    : deps.tpps.list().find((t) => t.name === idName)
  const tppId = deps.tpps.save({
    ...(known ? { id: known.id } : {}),
    name: idName,
    redirectUris: identity.redirectUris ?? known?.redirectUris ?? [],
  }).id
  await importKeyMaterial(tppId, identity, base, deps.tpps, processEnv)
  if (identity.softwareStatementFile)
    deps.tpps.importSoftwareStatement({
      tppId,
      ssa: readRef(base, identity.softwareStatementFile, 'software statement'),
    })
  const cas = (identity.caFiles ?? []).map((c) => readRef(base, c, 'CA certificate'))
  if (cas[0]) await deps.tpps.importPem({ tppId, role: 'rootCa', certificatePem: cas[0] })
  if (cas[1]) await deps.tpps.importPem({ tppId, role: 'issuingCa', certificatePem: cas[1] })
  if (identity.redirectUris) deps.tpps.save({ id: tppId, name: idName, redirectUris: identity.redirectUris })
  return tppId
}

/**
 * Imports an environment file into the console store: the environment (updated in place when one of the
 * same name exists), the TPP identity (keys into the encrypted store) and the client. Idempotent.
 */
export async function importEnvironmentFile(
  path: string,
  deps: {
    environments: EnvironmentsService
    tpps: TppsService
    registration: RegistrationService
    processEnv?: NodeJS.ProcessEnv
  },
): Promise<ImportedEnvironment> {
  const f = readEnvironmentFile(path)
  const base = dirname(resolve(path))
  const processEnv = deps.processEnv ?? process.env
  const existing = deps.environments.list().find((e) => e.name === f.name.trim() && !e.builtIn)
  let tppId = existing?.tppId
  if (f.identity) tppId = await importIdentity(f.name, f.identity, tppId, base, deps, processEnv)
  const input: EnvironmentInput = {
    ...(existing ? { id: existing.id } : {}),
    name: f.name,
    kind: f.kind,
    baseUrl: f.baseUrl,
    authUrl: f.authUrl,
    apiPaths: { ...DEFAULT_API_PATHS, ...(f.kind === 'bank-sandbox' ? { o3: '/o3/v1.0' } : {}), ...(f.apiPaths ?? {}) },
    appScheme: f.appScheme ?? 'bankapp',
    tlsVerification: f.tls.verify,
    ...(f.tls.caFile ? { caBundlePem: readRef(base, f.tls.caFile, 'CA bundle') } : {}),
    ...(tppId ? { tppId } : {}),
    allowedAuthMethods:
      f.allowedAuthMethods ??
      (f.kind === 'production' ? ['private_key_jwt'] : ['private_key_jwt', 'client_secret_basic']),
  }
  const environment = deps.environments.save(input)
  let clientId: string | undefined
  if (f.client) {
    if (!tppId)
      throw bad(
        path,
        'It names a client but no identity.',
        'Add "identity" (the transport certificate and signing key the client was registered with).',
      )
    const secret = f.client.secretEnv ? processEnv[f.client.secretEnv] : undefined
    if (f.client.secretEnv && secret === undefined)
      throw new AppError('INVALID_INPUT', {
        what: `The environment variable ${f.client.secretEnv} is not set.`,
        cause: 'The environment file names it as holding the client secret.',
        fix: `Set ${f.client.secretEnv} before running the command.`,
      })
    await deps.registration.adopt({
      clientId: f.client.clientId,
      environmentId: environment.id,
      tppId,
      authMethod: f.client.authMethod ?? 'private_key_jwt',
      ...(secret !== undefined ? { secret } : {}),
    })
    clientId = f.client.clientId
  }
  return { environment, ...(tppId ? { tppId } : {}), ...(clientId ? { clientId } : {}) }
}

/** An environment as a file to commit: addresses and TLS setting; the paths of key material are left for the team to fill. */
export function exportEnvironmentFile(
  env: EnvironmentDto,
  options: { caFile?: string; clientId?: string; authMethod?: TokenEndpointAuthMethod } = {},
): EnvironmentFile {
  if (env.kind === 'local-sandbox')
    throw new AppError('INVALID_INPUT', {
      what: 'The local sandbox needs no environment file.',
      cause: 'Its addresses change each time it starts.',
      fix: 'Use --env local.',
    })
  return {
    format: ENVIRONMENT_FILE_FORMAT,
    name: env.name,
    kind: env.kind,
    baseUrl: env.baseUrl,
    authUrl: env.authUrl,
    apiPaths: env.apiPaths,
    appScheme: env.appScheme,
    tls: {
      verify: env.tlsVerification,
      ...(env.tlsVerification === 'exact-ca' ? { caFile: options.caFile ?? 'bank-ca.pem' } : {}),
    },
    allowedAuthMethods: env.allowedAuthMethods,
    ...(options.clientId
      ? { client: { clientId: options.clientId, authMethod: options.authMethod ?? 'private_key_jwt' } }
      : {}),
  }
}
