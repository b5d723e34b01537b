import { writeFileSync } from 'node:fs'
import { exportEnvironmentFile, importEnvironmentFile } from '../services/environment-file.ts'
import { importPostmanEnvironment, parsePostmanText } from '../services/postman-import.ts'
import { reportError, UsageError } from './cli-support.ts'
import { choiceFlag, inputFile, outputFile, readInput } from './flags.ts'
import { output, parseCommand, setCurrentClient, withRuntime } from './cli-context.ts'
import { ENV_USAGE } from './usage.ts'
import type { ConsoleRuntime } from './console-runtime.ts'
import { writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { ENV_USAGE }

/** The env command line read and checked: the subcommand's argument, and each flag only where it applies. */
function parseEnvArgs(sub: string | undefined, rest: string[]) {
  if (!sub || !['list', 'import', 'export', 'import-postman'].includes(sub))
    throw new UsageError(
      sub ? `unknown env command "${sub}"` : 'env needs a command: list, import, export or import-postman',
      'Give env list, env import FILE, env export NAME or env import-postman FILE.',
    )
  const parsed = parseCommand(
    rest,
    {
      out: { type: 'string' },
      name: { type: 'string' },
      tpp: { type: 'string' },
      'tls-verify': { type: 'string' },
    },
    sub === 'list' ? 0 : 1,
  )
  const v = parsed.values
  if (sub !== 'list' && !parsed.positionals[0])
    throw new UsageError(
      `env ${sub} needs ${sub === 'export' ? "the environment's NAME" : 'a FILE'}`,
      sub === 'export' ? 'Give the name of a saved environment (ob-console env list).' : 'Give the file to import.',
    )
  const misplaced = (
    [
      ['out', 'export'],
      ['name', 'import-postman'],
      ['tpp', 'import-postman'],
      ['tls-verify', 'import-postman'],
    ] as const
  ).find(([f, s]) => v[f] !== undefined && s !== sub)
  if (misplaced) throw new UsageError(`--${misplaced[0]} applies to env ${misplaced[1]} only`)
  if (v['tls-verify']) choiceFlag('tls-verify', v['tls-verify'], ['off', 'system'])
  if (v.out) outputFile('out', v.out)
  if (sub === 'import' || sub === 'import-postman') inputFile(undefined, parsed.positionals[0]!)
  return parsed
}

type EnvValues = ReturnType<typeof parseEnvArgs>['values']

/** `env export NAME`: the environment as a file (with its client when --client names one), to --out or stdout. */
function exportEnvironment(rt: ConsoleRuntime, v: EnvValues, arg: string): number {
  const s = rt.services
  const c = { json: !!v.json }
  const env = s.environments.list().find((e) => e.id === arg || e.name === arg)
  if (!env) throw new UsageError(`no environment "${arg}"`)
  const client = v.client ? s.registration.record(v.client) : undefined
  const file = exportEnvironmentFile(env, client ? { clientId: client.clientId, authMethod: client.authMethod } : {})
  if (v.out) writeFileSync(v.out, JSON.stringify(file, null, 2) + '\n')
  // The file itself on stdout stays a whole, valid JSON file (escaped for the terminal, never cut).
  if (!v.out && !c.json) writeJsonOut(file, 2)
  else
    output(
      c,
      file,
      `wrote ${v.out}${env.tlsVerification === 'exact-ca' ? ` (put the bank's CA bundle beside it as ${file.tls.caFile})` : ''}`,
    )
  return 0
}

/** `env import-postman FILE`: a Postman environment imported (for --tpp, named --name, with --tls-verify). */
async function importPostman(rt: ConsoleRuntime, v: EnvValues, arg: string): Promise<number> {
  const s = rt.services
  const c = { json: !!v.json }
  const tppId = v.tpp ? s.tpps.list().find((t) => t.id === v.tpp || t.name === v.tpp)?.id : undefined
  if (v.tpp && !tppId) throw new UsageError(`no TPP identity "${v.tpp}"`)
  const imported = await importPostmanEnvironment(s, parsePostmanText(readInput(arg), arg), arg, {
    ...(v.name ? { name: v.name } : {}),
    ...(tppId ? { tppId } : {}),
    ...(v['tls-verify'] ? { tlsVerify: v['tls-verify'] as 'off' | 'system' } : {}),
  })
  const env = imported.environment
  output(
    c,
    {
      environmentId: env.id,
      name: env.name,
      baseUrl: env.baseUrl,
      authUrl: env.authUrl,
      clientId: imported.clientId,
      notes: imported.notes,
    },
    [
      `imported ${env.name}: ${env.baseUrl}, auth ${env.authUrl}${imported.clientId ? `, client ${imported.clientId} (current)` : ''}`,
      ...imported.notes.map((n) => `  ${n}`),
    ].join('\n'),
  )
  return 0
}

/** `ob-console env list|import|export|import-postman`. */
export async function runEnvCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  let parsed
  try {
    parsed = parseEnvArgs(sub, rest)
  } catch (err) {
    return reportError(err, ENV_USAGE)
  }
  const v = parsed.values
  const arg = parsed.positionals[0]!
  if (v.help) {
    writeOut(ENV_USAGE)
    return 0
  }
  return withRuntime(v, ENV_USAGE, async (rt) => {
    const s = rt.services
    const c = { json: !!v.json }
    if (sub === 'list') {
      const envs = s.environments.list()
      output(
        c,
        { environments: envs.map(({ caBundlePem: _ca, ...e }) => e) },
        envs.map((e) => `${e.name} (${e.kind}): ${e.baseUrl}, auth ${e.authUrl}`).join('\n') || 'no environment saved',
      )
      return 0
    }
    if (sub === 'import') {
      const imported = await importEnvironmentFile(arg, {
        environments: s.environments,
        tpps: s.tpps,
        registration: s.registration,
      })
      if (imported.clientId) setCurrentClient(rt, imported.environment.id, imported.clientId)
      output(
        c,
        {
          environmentId: imported.environment.id,
          name: imported.environment.name,
          tppId: imported.tppId,
          clientId: imported.clientId,
        },
        `imported ${imported.environment.name}${imported.clientId ? ` with client ${imported.clientId} (current)` : ''}`,
      )
      return 0
    }
    if (sub === 'export') return exportEnvironment(rt, v, arg)
    return importPostman(rt, v, arg)
  })
}
