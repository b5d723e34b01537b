import type { ClaimChangeDto, RegistrationForm } from '../contract/api.ts'
import { claimChangeLines } from '../services/registration-diff.ts'
import type { ClientDto } from '../contract/environments.ts'
import { reportError, UsageError } from './cli-support.ts'
import {
  output,
  parseCommand,
  resolveClient,
  setCurrentClient,
  unwrap,
  withEnvironment,
  type CommandContext,
} from './cli-context.ts'
import { choiceFlag, scopeFlag } from './flags.ts'
import { DCR_USAGE } from './usage.ts'
import { writeOut } from '../plumbing/terminal-out.ts'

/** The claims the bank registered otherwise than sent, as lines under the outcome (nothing when none). */
function changedText(changes: ClaimChangeDto[]): string {
  if (!changes.length) return ''
  const lines = claimChangeLines(changes).map((l) => `  ${l}`)
  return `\nThe bank changed or dropped ${changes.length} claim${changes.length === 1 ? '' : 's'} sent (its answer is what holds; a bank may take a claim such as client_name from the software statement):\n${lines.join('\n')}`
}

export { DCR_USAGE }

const OPTIONS = {
  'client-name': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  scope: { type: 'string' },
  'auth-method': { type: 'string' },
  'request-object-alg': { type: 'string' },
  'send-anyway': { type: 'boolean' },
  claim: { type: 'string', multiple: true },
} as const

/** The registration form that re-sends what the bank registered (the claims a PUT must carry again). */
export function formFromRegistration(reg: Record<string, unknown>): RegistrationForm {
  const str = (k: string) => (typeof reg[k] === 'string' ? (reg[k] as string) : undefined)
  const arr = (k: string) => (Array.isArray(reg[k]) ? (reg[k] as string[]) : undefined)
  const form: RegistrationForm = {}
  const set = <K extends keyof RegistrationForm>(k: K, v: RegistrationForm[K] | undefined) => {
    if (v !== undefined) form[k] = v
  }
  set('redirectUris', arr('redirect_uris'))
  set('tokenEndpointAuthMethod', str('token_endpoint_auth_method'))
  set('tokenEndpointAuthSigningAlg', str('token_endpoint_auth_signing_alg'))
  set('scope', str('scope'))
  set('grantTypes', arr('grant_types'))
  set('responseTypes', arr('response_types'))
  set('requestObjectSigningAlg', str('request_object_signing_alg'))
  set('idTokenSignedResponseAlg', str('id_token_signed_response_alg'))
  set('applicationType', str('application_type'))
  set('subjectType', str('subject_type'))
  if (str('sandbox_profile')) form.extraClaims = { sandbox_profile: str('sandbox_profile') }
  return form
}

/** `--claim name=value`, repeated: extra registration claims sent as they are. */
function extraClaims(list: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const c of list ?? []) {
    const i = c.indexOf('=')
    if (i < 1) throw new UsageError(`--claim takes name=value, got "${c}"`)
    out[c.slice(0, i)] = c.slice(i + 1)
  }
  return out
}

function clientText(c: ClientDto): string {
  const reg = c.registration as Record<string, unknown>
  return [
    `client ${c.clientId}`,
    `  environment        ${c.environmentId}`,
    `  auth method        ${c.authMethod}${c.hasSecret ? ' (secret stored encrypted)' : ''}`,
    `  scope              ${c.scope}`,
    `  redirect URIs      ${c.redirectUris.join(', ')}`,
    ...(reg.client_name ? [`  client name        ${String(reg.client_name)}`] : []),
    `  registered at      ${c.registeredAt}`,
  ].join('\n')
}

/** The dcr command line read and checked (claims meant to be refused are let through with --send-anyway). */
function parseDcrArgs(sub: string | undefined, rest: string[]) {
  if (!sub || !['register', 'get', 'update', 'delete', 'list'].includes(sub))
    throw new UsageError(
      sub ? `unknown dcr command "${sub}"` : 'dcr needs a command: register, get, update, delete or list',
      'Give dcr register, get, update, delete or list.',
    )
  const parsed = parseCommand(rest, OPTIONS, 0)
  const v = parsed.values
  // --send-anyway sends claims the console would refuse, to see the bank's answer: they are not checked here.
  if (v['auth-method'] && !v['send-anyway'])
    choiceFlag('auth-method', v['auth-method'], ['private_key_jwt', 'client_secret_basic', 'tls_client_auth'])
  if (v.scope && !v['send-anyway']) scopeFlag('scope', v.scope, ['openid', 'accounts', 'payments'])
  for (const uri of v['redirect-uri'] ?? []) {
    if (!URL.canParse(uri))
      throw new UsageError(
        `--redirect-uri must be an absolute URI, got "${uri}"`,
        'Give e.g. https://tpp.example/callback.',
      )
  }
  extraClaims(v.claim)
  return parsed
}

type DcrValues = ReturnType<typeof parseDcrArgs>['values']

/** `dcr register`: the registration defaults for the environment's TPP identity, with the flags' claims. */
async function registerClient(c: CommandContext, v: DcrValues): Promise<number> {
  const h = c.rt.handlers
  const tppId = c.env.tppId
  if (!tppId)
    throw new UsageError(
      `${c.env.name} has no TPP identity: run ob-console onboard --env local, or give identity in the environment file`,
    )
  const defaults = unwrap(await h['registration.defaults']({ environmentId: c.env.id, tppId }))
  const form: RegistrationForm = {
    ...defaults,
    ...(v['auth-method'] ? { tokenEndpointAuthMethod: v['auth-method'] } : {}),
    ...(v['redirect-uri'] ? { redirectUris: v['redirect-uri'] } : {}),
    ...(v.scope ? { scope: v.scope } : {}),
    ...(v['request-object-alg'] ? { requestObjectSigningAlg: v['request-object-alg'] } : {}),
    extraClaims: { ...(v['client-name'] ? { client_name: v['client-name'] } : {}), ...extraClaims(v.claim) },
  }
  const outcome = unwrap(
    await h['registration.register']({
      environmentId: c.env.id,
      tppId,
      form,
      ...(v['send-anyway'] ? { sendAnyway: true } : {}),
    }),
  )
  setCurrentClient(c.rt, c.env.id, outcome.client.clientId)
  output(c, outcome, `registered ${clientText(outcome.client)}${changedText(outcome.changedByBank)}`)
  return 0
}

/** `dcr update`: the client's registration with the claims the flags change. */
async function updateClient(c: CommandContext, v: DcrValues, clientId: string): Promise<number> {
  const h = c.rt.handlers
  const current = c.rt.services.registration.record(clientId)
  const changes: RegistrationForm = {
    ...(v['redirect-uri'] ? { redirectUris: v['redirect-uri'] } : {}),
    ...(v.scope ? { scope: v.scope } : {}),
    ...(v['auth-method'] ? { tokenEndpointAuthMethod: v['auth-method'] } : {}),
    ...(v['request-object-alg'] ? { requestObjectSigningAlg: v['request-object-alg'] } : {}),
  }
  if (!Object.keys(changes).length && !v['client-name'])
    throw new UsageError(
      'dcr update needs at least one claim to change (--client-name, --redirect-uri, --scope, --auth-method, --request-object-alg)',
    )
  const base = formFromRegistration(current.registration as Record<string, unknown>)
  const form: RegistrationForm = {
    ...base,
    ...changes,
    ...(v['client-name'] ? { extraClaims: { ...(base.extraClaims ?? {}), client_name: v['client-name'] } } : {}),
  }
  const outcome = unwrap(await h['registration.update']({ clientId, form }))
  output(c, outcome, `updated ${clientText(outcome.client)}${changedText(outcome.changedByBank)}`)
  return 0
}

/** `ob-console dcr register|get|update|delete|list`: the client's registration at the bank. */
export async function runDcrCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  let parsed
  try {
    parsed = parseDcrArgs(sub, rest)
  } catch (err) {
    return reportError(err, DCR_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(DCR_USAGE)
    return 0
  }
  return withEnvironment(v, DCR_USAGE, async (c) => {
    const h = c.rt.handlers
    if (sub === 'list') {
      const clients = unwrap(await h['clients.list']({ environmentId: c.env.id }))
      output(c, { clients }, clients.map(clientText).join('\n\n') || `no client registered in ${c.env.name}`)
      return 0
    }
    if (sub === 'register') return registerClient(c, v)
    const clientId = resolveClient(c, v.client)
    if (sub === 'get') {
      const { client, exchangeId } = unwrap(await h['registration.read']({ clientId }))
      output(c, { client, exchangeId }, clientText(client))
      return 0
    }
    if (sub === 'update') return updateClient(c, v, clientId)
    const { exchangeId } = unwrap(await h['registration.delete']({ clientId }))
    if (c.rt.services.state.read().currentClients[c.env.id] === clientId) setCurrentClient(c.rt, c.env.id, undefined)
    output(c, { clientId, deleted: true, exchangeId }, `deleted client ${clientId} at the bank`)
    return 0
  })
}
