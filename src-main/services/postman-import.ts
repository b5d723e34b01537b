import type { PostmanImportDto } from '../contract/tpp-tools.ts'
import { AppError } from '../core/app-error.ts'
import { DEFAULT_API_PATHS, type EnvironmentsService } from './environments-service.ts'
import { readPostmanEnvironment } from './o3-service.ts'
import type { ConsoleStateStore } from './persistence/console-state-store.ts'
import type { RegistrationService } from './registration-service.ts'
import type { TppsService } from './tpps-service.ts'

export interface PostmanImportOptions {
  name?: string
  tppId?: string
  tlsVerify?: 'off' | 'system'
}

/** Parses the text of a Postman environment file, naming the file when it is not JSON. */
export function parsePostmanText(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (err) {
    throw new AppError('INVALID_INPUT', {
      what: `${source} is not JSON.`,
      cause: (err as Error).message,
      fix: "Give the environment file as Postman exports it (or the sandbox's o3 download), unchanged.",
    })
  }
}

/**
 * A Postman environment (Postman's export or the sandbox's o3 download) as a bank-sandbox environment:
 * `base_url`/`auth_url`, the AIS and PIS paths. With `tppId` (or the identity of the environment it updates),
 * the file's client becomes a client of that identity, marked current (its secret, if the file holds one unmasked, goes to the encrypted store).
 */
export async function importPostmanEnvironment(
  s: {
    environments: EnvironmentsService
    tpps: TppsService
    registration: RegistrationService
    state: ConsoleStateStore
  },
  json: unknown,
  source: string,
  options: PostmanImportOptions = {},
): Promise<PostmanImportDto> {
  const p = readPostmanEnvironment(json, source)
  if (options.tppId) s.tpps.record(options.tppId)
  if (options.tlsVerify && !['off', 'system'].includes(options.tlsVerify)) {
    throw new AppError('INVALID_INPUT', {
      what: `TLS verification "${String(options.tlsVerify)}" is not offered for an imported environment.`,
      cause: 'A Postman environment carries no CA bundle.',
      fix: "Choose off (the bank's sandbox) or system (certificates from a public CA).",
    })
  }
  const name = options.name?.trim() || p.name || 'Imported from Postman'
  const existing = s.environments.list().find((e) => e.name === name && !e.builtIn)
  // A file imported again into its environment keeps the identity the environment has.
  const tppId = options.tppId ?? existing?.tppId
  const environment = s.environments.save({
    ...(existing ? { id: existing.id } : {}),
    name,
    kind: 'bank-sandbox',
    baseUrl: p.baseUrl,
    authUrl: p.authUrl,
    apiPaths: {
      ...DEFAULT_API_PATHS,
      o3: '/o3/v1.0',
      ...(p.aisPath ? { ais: p.aisPath } : {}),
      ...(p.pisPath ? { pis: p.pisPath } : {}),
    },
    appScheme: 'bankapp',
    tlsVerification: options.tlsVerify ?? 'off',
    ...(tppId ? { tppId } : {}),
    allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
  })
  const notes: string[] = []
  let clientId: string | undefined
  if (p.clientId && !tppId) {
    notes.push(
      `Client ${p.clientId} not kept: name the identity it was registered with (the import form's TPP identity, or --tpp NAME)`,
    )
  } else if (p.clientId && tppId) {
    const kept = s.registration.list().find((c) => c.clientId === p.clientId)
    if (kept && kept.environmentId !== environment.id) {
      notes.push(
        `Client ${p.clientId} is already kept for another environment (${kept.environmentId}); it stays there.`,
      )
    } else {
      await s.registration.adopt({
        clientId: p.clientId,
        environmentId: environment.id,
        tppId,
        authMethod: p.clientSecret ? 'client_secret_basic' : (kept?.authMethod ?? 'private_key_jwt'),
        ...(p.clientSecret ? { secret: p.clientSecret } : {}),
      })
      s.state.update((d) => {
        d.currentClients[environment.id] = p.clientId!
      })
      clientId = p.clientId
      if (p.clientSecret) notes.push('The client secret is stored encrypted.')
    }
  }
  return { environment, ...(clientId ? { clientId } : {}), notes }
}
