import { parseArgs } from 'node:util'
import type { JwtVerifyInput } from '../contract/api.ts'
import { AppError } from '../core/app-error.ts'
import { systemClock } from '../core/clock.ts'
import { verifyJwt } from '../services/jwt-debugger.ts'
import { decodeJwt } from '../signing/jwt-decode.ts'
import { formatChecks, readInput, reportError, UsageError } from './cli-support.ts'
import { JWT_USAGE } from './usage.ts'

export { JWT_USAGE }


function tokenFrom(arg: string | undefined): string {
  if (!arg) throw new UsageError('give the token, a file holding it, or - for standard input')
  if (/^[\w-]+\.[\w-]*\.[\w-]*$/.test(arg.trim())) return arg.trim()
  return readInput(arg).trim()
}

/** `ob-console jwt decode|verify`: the JWT debugger from the command line. */
export async function runJwtCommand(argv: string[]): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub !== 'decode' && sub !== 'verify') throw new UsageError(sub ? `unknown jwt command "${sub}"` : 'jwt needs a command: decode or verify')
    let parsed
    try {
      parsed = parseArgs({ args: rest, allowPositionals: true, strict: true, options: { key: { type: 'string' }, jwks: { type: 'string' }, ca: { type: 'string' }, insecure: { type: 'boolean' }, rules: { type: 'string' }, expect: { type: 'string', multiple: true }, json: { type: 'boolean' } } })
    } catch (err) {
      throw new UsageError((err as Error).message.split('\n')[0]!)
    }
    const token = tokenFrom(parsed.positionals[0])
    const v = parsed.values
    if (sub === 'decode') {
      const d = decodeJwt(token)
      process.stdout.write(v.json ? JSON.stringify(d) + '\n' : `header  ${JSON.stringify(d.header, null, 2)}\nclaims  ${JSON.stringify(d.claims ?? null, null, 2)}\ntimes   ${JSON.stringify(d.times)}\nsignature ${d.signature}\n`)
      return 0
    }
    if (!v.key && !v.jwks) throw new UsageError('jwt verify needs --key FILE (PEM public key, certificate or JWK) or --jwks URL')
    if (v.rules && !['registration', 'request-object', 'id-token'].includes(v.rules)) throw new UsageError(`--rules must be registration, request-object or id-token, got "${v.rules}"`)
    const expected: Record<string, string> = {}
    for (const e of v.expect ?? []) {
      const i = e.indexOf('=')
      if (i < 1) throw new UsageError(`--expect takes name=value, got "${e}"`)
      expected[e.slice(0, i)] = e.slice(i + 1)
    }
    let key: JwtVerifyInput['key']
    if (v.key) {
      const text = readInput(v.key).trim()
      key = text.startsWith('{') ? { jwk: JSON.parse(text) } : { pem: text }
    } else key = { jwksUrl: v.jwks! }
    const fetchJwks = async ({ jwksUrl }: { jwksUrl?: string }) => {
      const { Agent, request } = await import('undici')
      const agent = new Agent({ connect: { ...(v.ca ? { ca: readInput(v.ca) } : {}), rejectUnauthorized: !v.insecure } })
      try {
        const res = await request(jwksUrl!, { dispatcher: agent })
        const body = await res.body.text()
        if (res.statusCode !== 200) throw new AppError('HTTP_ERROR', { what: `The JWKS at ${jwksUrl} answered ${res.statusCode}.`, cause: body.slice(0, 200), fix: 'Check the URL.' })
        return JSON.parse(body)
      } finally {
        await agent.close()
      }
    }
    const result = await verifyJwt({ token, key, ...(v.rules ? { rules: v.rules as JwtVerifyInput['rules'] } : {}), expected }, fetchJwks, systemClock())
    if (v.json) process.stdout.write(JSON.stringify(result) + '\n')
    else process.stdout.write(`${formatChecks(result.checks)}\n`)
    return result.checks.every((c) => c.pass) ? 0 : 1
  } catch (err) {
    return reportError(err, JWT_USAGE)
  }
}
