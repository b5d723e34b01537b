import type { JSONWebKeySet } from 'jose'
import { AppError } from '../core/app-error.ts'
import { directoryFacts, directoryPrerequisiteChecks } from '../services/prerequisites-service.ts'
import { formatChecks, reportError, UsageError } from './cli-support.ts'
import { output, parseCommand, withEnvironment } from './cli-context.ts'
import { httpsUrlFlag, inputFile, readInput } from './flags.ts'
import { PREREQUISITES_USAGE } from './usage.ts'
import { writeOut } from '../plumbing/terminal-out.ts'

export { PREREQUISITES_USAGE }

function parseJwksFile(text: string, file: string): JSONWebKeySet {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new AppError('KEY_INVALID', {
      what: `--directory-jwks ${file} is not JSON.`,
      cause: (err as Error).message,
      fix: 'Give the JWKS file ({"keys": [...]}) of the directory.',
    })
  }
  if (!json || typeof json !== 'object' || !Array.isArray((json as { keys?: unknown }).keys))
    throw new AppError('KEY_INVALID', {
      what: `--directory-jwks ${file} is not a JWKS.`,
      cause: 'It has no "keys" array.',
      fix: 'Give the JWKS file ({"keys": [...]}) of the directory.',
    })
  return json as JSONWebKeySet
}

/** `ob-console prerequisites`. */
export async function runPrerequisitesCommand(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommand(argv, { tpp: { type: 'string' }, 'directory-jwks': { type: 'string' } }, 0)
    const jwks = parsed.values['directory-jwks']
    if (jwks !== undefined && /^[a-z]+:\/\//i.test(jwks))
      httpsUrlFlag('directory-jwks', jwks, "Give the directory's JWKS https URL, or a JWKS file.")
    else if (jwks !== undefined) inputFile('directory-jwks', jwks)
  } catch (err) {
    return reportError(err, PREREQUISITES_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(PREREQUISITES_USAGE)
    return 0
  }
  return withEnvironment(v, PREREQUISITES_USAGE, async (c) => {
    const s = c.rt.services
    const tppId = v.tpp ? s.tpps.list().find((t) => t.id === v.tpp || t.name === v.tpp)?.id : c.env.tppId
    if (!tppId)
      throw new UsageError(
        v.tpp
          ? `no TPP identity "${v.tpp}"`
          : `${c.env.name} has no TPP identity: give --tpp NAME, onboard (--env local) or name the identity in the environment file`,
      )
    const record = s.tpps.record(tppId)
    const jwksArg = v['directory-jwks']
    const http = s.http.forIdentity(c.env, undefined, {})
    let facts = await directoryFacts(
      c.env,
      http,
      record.orgId,
      s.environments.localDirectory()?.directoryUrl,
      jwksArg && /^https?:/.test(jwksArg) ? jwksArg : undefined,
    )
    if (jwksArg && !/^https?:/.test(jwksArg))
      facts = { ...facts, jwks: parseJwksFile(readInput(jwksArg, 'directory-jwks'), jwksArg), source: jwksArg }
    const checks = [...(await s.tpps.checkPrerequisites(tppId)), ...(await directoryPrerequisiteChecks(record, facts))]
    const failed = checks.filter((x) => !x.pass && x.severity !== 'warning')
    output(
      c,
      { tppId, checks, pass: failed.length === 0 },
      `prerequisites of "${record.name}" for ${c.env.name}\n${checks.map((x) => (x.pass ? `  ${x.actual?.startsWith('not checked') ? '!' : '✓'} ${x.name}: ${x.actual ?? ''}` : formatChecks([x]))).join('\n')}`,
    )
    return failed.length ? 1 : 0
  })
}
