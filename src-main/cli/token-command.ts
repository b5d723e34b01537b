import { reportError } from './cli-support.ts'
import { output, parseCommand, resolveClient, withEnvironment } from './cli-context.ts'
import { scopeFlag } from './flags.ts'
import { TOKEN_USAGE } from './usage.ts'
import { writeOut } from '../plumbing/terminal-out.ts'

export { TOKEN_USAGE }

export function maskToken(token: string): string {
  return token.length <= 12 ? '(masked)' : `${token.slice(0, 6)}…${token.slice(-4)} (masked; --reveal to print it)`
}

/** `ob-console token`. */
export async function runTokenCommand(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommand(argv, { scope: { type: 'string' }, reveal: { type: 'boolean' } }, 0)
    // A client-credentials token is for accounts or payments (openid needs a PSU: it comes with a login).
    if (parsed.values.scope !== undefined) scopeFlag('scope', parsed.values.scope, ['accounts', 'payments', 'openid'])
  } catch (err) {
    return reportError(err, TOKEN_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(TOKEN_USAGE)
    return 0
  }
  return withEnvironment(v, TOKEN_USAGE, async (c) => {
    const clientId = resolveClient(c, v.client)
    const token = await c.rt.services.tokenFor(clientId, v.scope)
    const shown = v.reveal ? token : maskToken(token)
    output(
      c,
      { clientId, tokenType: 'Bearer', scope: v.scope ?? null, accessToken: shown },
      `access token of ${clientId}${v.scope ? ` (scope ${v.scope})` : ''}: ${shown}`,
    )
    return 0
  })
}
