import { writeFileSync } from 'node:fs'
import { reportError, UsageError } from './cli-support.ts'
import { output, parseCommand, resolveClient, unwrap, withEnvironment } from './cli-context.ts'
import { choiceFlag, outputFile } from './flags.ts'
import { O3_USAGE } from './usage.ts'
import { writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

export { O3_USAGE }

/** `ob-console o3 auth-code-url|postman-env`: the sandbox's convenience endpoints. */
export async function runO3Command(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  let parsed
  try {
    if (sub !== 'auth-code-url' && sub !== 'postman-env')
      throw new UsageError(
        sub ? `unknown o3 command "${sub}"` : 'o3 needs a command: auth-code-url or postman-env',
        'Give o3 auth-code-url or o3 postman-env.',
      )
    parsed = parseCommand(rest, { consent: { type: 'string' }, scope: { type: 'string' }, out: { type: 'string' } }, 0)
    const v = parsed.values
    if (sub === 'auth-code-url' && !v.consent)
      throw new UsageError('o3 auth-code-url needs --consent ID', 'Give the id of a consent awaiting authorisation.')
    if (sub === 'auth-code-url' && v.out) throw new UsageError('--out applies to o3 postman-env only')
    if (sub === 'postman-env' && (v.consent || v.scope))
      throw new UsageError(`--${v.consent ? 'consent' : 'scope'} applies to o3 auth-code-url only`)
    if (v.scope) choiceFlag('scope', v.scope, ['accounts', 'payments'])
    if (v.out) outputFile('out', v.out)
  } catch (err) {
    return reportError(err, O3_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(O3_USAGE)
    return 0
  }
  return withEnvironment(v, O3_USAGE, async (c) => {
    const clientId = resolveClient(c, v.client)
    if (sub === 'auth-code-url') {
      const r = unwrap(
        await c.rt.handlers['o3.authCodeUrl']({
          clientId,
          consentId: v.consent!,
          ...(v.scope ? { scope: v.scope } : {}),
        }),
      )
      output(c, r, r.url)
      return 0
    }
    const r = unwrap(await c.rt.handlers['o3.postmanEnvironment']({ clientId }))
    if (v.out) writeFileSync(v.out, JSON.stringify(r.environment, null, 2) + '\n')
    // The environment itself on stdout stays a whole, valid JSON file (escaped for the terminal, never cut).
    if (!v.out && !c.json) writeJsonOut(r.environment, 2)
    else output(c, r, `Postman environment written to ${v.out} (secrets masked)`)
    return 0
  })
}
