import { writeFileSync } from 'node:fs'
import { DEFAULT_API_PATHS } from '../services/environments-service.ts'
import { exportEnvironmentFile, importEnvironmentFile } from '../services/environment-file.ts'
import { readPostmanEnvironment } from '../services/o3-service.ts'
import { readInput, reportError, UsageError } from './cli-support.ts'
import { output, parseCommand, setCurrentClient, withRuntime } from './cli-context.ts'
import { ENV_USAGE } from './usage.ts'

export { ENV_USAGE }


/** `ob-console env list|import|export|import-postman`. */
export async function runEnvCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  let parsed
  try {
    if (!sub || !['list', 'import', 'export', 'import-postman'].includes(sub)) throw new UsageError(sub ? `unknown env command "${sub}"` : 'env needs a command: list, import, export or import-postman')
    parsed = parseCommand(rest, { out: { type: 'string' }, name: { type: 'string' }, tpp: { type: 'string' }, 'tls-verify': { type: 'string' } })
    if (sub !== 'list' && !parsed.values.help && !parsed.positionals[0]) throw new UsageError(`env ${sub} needs ${sub === 'export' ? 'the environment\'s NAME' : 'a FILE'}`)
    if (parsed.values['tls-verify'] && !['off', 'system'].includes(parsed.values['tls-verify'])) throw new UsageError(`--tls-verify must be off or system, got "${parsed.values['tls-verify']}"`)
  } catch (err) {
    return reportError(err, ENV_USAGE)
  }
  const v = parsed.values
  const arg = parsed.positionals[0]!
  if (v.help) {
    process.stdout.write(ENV_USAGE)
    return 0
  }
  return withRuntime(v, ENV_USAGE, async (rt) => {
    const s = rt.services
    const c = { json: !!v.json }
    if (sub === 'list') {
      const envs = s.environments.list()
      output(c, { environments: envs.map(({ caBundlePem: _ca, ...e }) => e) }, envs.map((e) => `${e.name} (${e.kind}): ${e.baseUrl}, auth ${e.authUrl}`).join('\n') || 'no environment saved')
      return 0
    }
    if (sub === 'import') {
      const imported = await importEnvironmentFile(arg, { environments: s.environments, tpps: s.tpps, registration: s.registration })
      if (imported.clientId) setCurrentClient(rt, imported.environment.id, imported.clientId)
      output(c, { environmentId: imported.environment.id, name: imported.environment.name, tppId: imported.tppId, clientId: imported.clientId }, `imported ${imported.environment.name}${imported.clientId ? ` with client ${imported.clientId} (current)` : ''}`)
      return 0
    }
    if (sub === 'export') {
      const env = s.environments.list().find((e) => e.id === arg || e.name === arg)
      if (!env) throw new UsageError(`no environment "${arg}"`)
      const client = v.client ? s.registration.record(v.client) : undefined
      const file = exportEnvironmentFile(env, client ? { clientId: client.clientId, authMethod: client.authMethod } : {})
      if (v.out) writeFileSync(v.out, JSON.stringify(file, null, 2) + '\n')
      output(c, file, v.out ? `wrote ${v.out}${env.tlsVerification === 'exact-ca' ? ` (put the bank's CA bundle beside it as ${file.tls.caFile})` : ''}` : JSON.stringify(file, null, 2))
      return 0
    }
    let json: unknown
    try {
      json = JSON.parse(readInput(arg))
    } catch (err) {
      if (err instanceof UsageError) throw err
      throw new UsageError(`${arg} is not JSON: ${(err as Error).message}`)
    }
    const p = readPostmanEnvironment(json, arg)
    const tppId = v.tpp ? s.tpps.list().find((t) => t.id === v.tpp || t.name === v.tpp)?.id : undefined
    if (v.tpp && !tppId) throw new UsageError(`no TPP identity "${v.tpp}"`)
    const name = v.name ?? p.name ?? 'Imported from Postman'
    const existing = s.environments.list().find((e) => e.name === name && !e.builtIn)
    const env = s.environments.save({
      ...(existing ? { id: existing.id } : {}),
      name,
      kind: 'bank-sandbox',
      baseUrl: p.baseUrl,
      authUrl: p.authUrl,
      apiPaths: { ...DEFAULT_API_PATHS, o3: '/o3/v1.0', ...(p.aisPath ? { ais: p.aisPath } : {}), ...(p.pisPath ? { pis: p.pisPath } : {}) },
      appScheme: 'bankapp',
      tlsVerification: (v['tls-verify'] ?? 'off') as 'off' | 'system',
      ...(tppId ? { tppId } : {}),
      allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
    })
    let clientId: string | undefined
    if (p.clientId && tppId) {
      await s.registration.adopt({ clientId: p.clientId, environmentId: env.id, tppId, authMethod: p.clientSecret ? 'client_secret_basic' : 'private_key_jwt', ...(p.clientSecret ? { secret: p.clientSecret } : {}) })
      setCurrentClient(rt, env.id, p.clientId)
      clientId = p.clientId
    }
    output(c, { environmentId: env.id, name: env.name, baseUrl: env.baseUrl, authUrl: env.authUrl, clientId }, `imported ${env.name}: ${env.baseUrl}, auth ${env.authUrl}${clientId ? `, client ${clientId} (current${p.clientSecret ? ', secret stored encrypted' : ''})` : p.clientId ? ` (client ${p.clientId} not kept: give --tpp NAME, the identity it was registered with)` : ''}`)
    return 0
  })
}
