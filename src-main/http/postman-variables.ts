// The exchanges of a run with their changing values as Postman variables (`{{access_token}}`, `{{consent_id}}`,
// `{{base_url}}`...), so a replay with newman or Postman sends real values from an environment file instead of
// masked ones. Built from the exchanges as recorded (main side only); what is not turned into a variable goes
// through the one redaction rule set, so no other secret and no private key ends up in the collection.
import type { BodyDto, ExchangeDto, HeaderDto } from '../contract/exchange.ts'
import { looksLikePrivateKey } from '../core/private-key-scan.ts'
import { redactBody } from '../core/redact.ts'
import { redactHeaderValue, redactUrl } from '../core/redact-text.ts'
import type { MaskContext } from '../core/secret-mask.ts'
import { headerValue } from '../core/header-lookup.ts'

/** One Postman variable: its value goes into the environment file, never into the collection. */
export interface PostmanVariable {
  key: string
  value: string
  /** A token or credential: Postman's `secret` type, and left empty in the collection's variable list. */
  secret: boolean
  description: string
}

/** The exchanges with variables in place of values, and the variables in the order first met. */
export interface TemplatedExchanges {
  exchanges: ExchangeDto[]
  variables: PostmanVariable[]
}

/** The environment's addresses, when known: their origins become `{{base_url}}` and `{{auth_url}}`. */
export interface TemplateOptions {
  baseUrl?: string
  authUrl?: string
}

const header = headerValue

const originOf = (url: string | undefined): string | undefined => {
  if (!url) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/** Values to variables: a value maps to one key; a `latest` key keeps the last value met (a refreshed token). */
class Variables {
  readonly list: PostmanVariable[] = []
  readonly byValue = new Map<string, string>()

  add(base: string, value: unknown, secret: boolean, description: string, latest = false): void {
    if (typeof value !== 'string' || value.length < 4 || this.byValue.has(value) || looksLikePrivateKey(value)) return
    const same = this.list.find((v) => v.key === base)
    if (same && latest) {
      same.value = value
      this.byValue.set(value, base)
      return
    }
    let key = base
    for (let n = 2; this.list.some((v) => v.key === key); n++) key = `${base}_${n}`
    this.list.push({ key, value, secret, description })
    this.byValue.set(value, key)
  }

  ref(value: string): string | undefined {
    const key = this.byValue.get(value)
    return key ? `{{${key}}}` : undefined
  }
}

function json(body: BodyDto | undefined): unknown {
  if (!body || body.encoding !== 'utf8' || body.truncated || body.dropped) return undefined
  try {
    return JSON.parse(body.text)
  } catch {
    return undefined
  }
}

const isForm = (e: ExchangeDto) =>
  /x-www-form-urlencoded/i.test(e.request.body?.contentType ?? header(e.request.headers, 'content-type') ?? '')

/** The values worth a variable, read from the requests and the answers, in order. */
function collect(exchanges: ExchangeDto[], options: TemplateOptions): Variables {
  const vars = new Variables()
  const requestOrigins = exchanges.map((e) => originOf(e.request.url))
  const base =
    originOf(options.baseUrl) ??
    requestOrigins.find((o, i) => o && exchanges[i]!.request.url.includes('/open-banking/'))
  const tokenIndex = exchanges.findIndex((e) => isForm(e) && /(^|&)grant_type=/.test(e.request.body?.text ?? ''))
  const auth = originOf(options.authUrl) ?? (tokenIndex >= 0 ? requestOrigins[tokenIndex] : undefined)
  if (base) vars.add('base_url', base, false, "The bank's {base_url} (resource server).")
  if (auth && auth !== base) vars.add('auth_url', auth, false, "The bank's {auth_url} (authorisation server).")
  for (const e of exchanges) {
    const answer = json(e.response?.body) as Record<string, unknown> | undefined
    if (isForm(e) && e.request.body && !e.request.body.dropped) {
      const form = new URLSearchParams(e.request.body.text)
      vars.add('client_id', form.get('client_id'), false, 'The client id.')
      if (answer && typeof answer.access_token === 'string') {
        const clientCredentials = form.get('grant_type') === 'client_credentials'
        vars.add(
          clientCredentials ? 'client_token' : 'access_token',
          answer.access_token,
          true,
          clientCredentials
            ? 'The client-credentials access token (consent requests).'
            : "The access token the PSU's consent authorised (data requests).",
          true,
        )
        vars.add('refresh_token', answer.refresh_token, true, 'The refresh token.', true)
      }
    }
    if (answer) {
      vars.add('client_id', answer.client_id, false, 'The client id.')
      const data = answer.Data as Record<string, unknown> | undefined
      if (data && typeof data === 'object') {
        vars.add('consent_id', data.ConsentId, false, 'The consent id the bank gave.')
        vars.add('domestic_payment_id', data.DomesticPaymentId, false, 'The domestic payment id the bank gave.')
        if (Array.isArray(data.Account))
          for (const a of data.Account as Array<Record<string, unknown>>)
            vars.add('account_id', a?.AccountId, false, 'An account id the bank listed.')
      }
    }
    const credential = /^(Bearer|Basic)\s+(\S+)$/i.exec(header(e.request.headers, 'authorization') ?? '')
    if (credential)
      vars.add(
        credential[1]!.toLowerCase() === 'basic' ? 'basic_credentials' : 'bearer_token',
        credential[2],
        true,
        credential[1]!.toLowerCase() === 'basic'
          ? 'The client id and secret of client_secret_basic, base64.'
          : 'A bearer token.',
      )
  }
  return vars
}

/** The URL with the known origin and the path segments and query values that are variables replaced. */
function templateUrl(url: string, vars: Variables): string {
  let out = url
  for (const v of vars.list)
    if ((v.key === 'base_url' || v.key === 'auth_url') && out.startsWith(v.value)) {
      out = `{{${v.key}}}${out.slice(v.value.length)}`
      break
    }
  const cut = out.search(/[?#]/)
  const path = cut < 0 ? out : out.slice(0, cut)
  const rest = cut < 0 ? '' : out.slice(cut)
  const segments = path.split('/').map((s) => {
    let decoded = s
    try {
      decoded = decodeURIComponent(s)
    } catch {
      // kept as it is
    }
    return vars.ref(decoded) ?? s
  })
  const query = rest.replace(/([?&;])([^=&;#]+)=([^&;#]*)/g, (whole, sep: string, name: string, value: string) => {
    let decoded = value
    try {
      decoded = decodeURIComponent(value.replace(/\+/g, ' '))
    } catch {
      // kept as it is
    }
    const ref = vars.ref(decoded)
    return ref ? `${sep}${name}=${ref}` : whole
  })
  return segments.join('/') + query
}

function replaceJsonStrings(value: unknown, vars: Variables): unknown {
  if (typeof value === 'string') return vars.ref(value) ?? value
  if (Array.isArray(value)) return value.map((v) => replaceJsonStrings(v, vars))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceJsonStrings(v, vars)]))
  return value
}

function templateBody(body: BodyDto, form: boolean, vars: Variables, ctx: MaskContext): BodyDto {
  if (body.dropped || body.encoding !== 'utf8') return body
  let text = body.text
  if (form)
    text = text.replace(/(^|&)([^=&]+)=([^&]*)/g, (whole, sep: string, name: string, value: string) => {
      let decoded = value
      try {
        decoded = decodeURIComponent(value.replace(/\+/g, ' '))
      } catch {
        // kept as it is
      }
      const ref = vars.ref(decoded)
      return ref ? `${sep}${name}=${ref}` : whole
    })
  else if (!body.truncated && /^\s*[[{]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text)
      const replaced = replaceJsonStrings(parsed, vars)
      if (JSON.stringify(replaced) !== JSON.stringify(parsed)) text = JSON.stringify(replaced)
    } catch {
      // not JSON: kept as it is
    }
  }
  return { ...body, text: redactBody(text, body.contentType, ctx) }
}

/**
 * The exchanges (as recorded: `exchanges.raw`) with the values a replay must change as Postman variables:
 * the environment's origins (`base_url`, `auth_url`), the client id, the access tokens the token endpoint
 * issued (`client_token` for client credentials, `access_token` for the PSU's, the last one when refreshed),
 * `refresh_token`, the consent, account and payment ids the bank gave, and any other bearer or basic
 * credential. Everything else is redacted as the inspector shows it (a client assertion or a code stays
 * masked: they are single-use), and a header that would still carry a masked value becomes a variable of its
 * own, so that every request can be sent. The variables' values are for the environment file only.
 *
 * @example const { exchanges, variables } = templateExchanges(ids.map((id) => engine.exchanges.raw(id)), env)
 */
export function templateExchanges(raw: ExchangeDto[], options: TemplateOptions = {}): TemplatedExchanges {
  const vars = collect(raw, options)
  const exchanges = raw.map((e) => {
    const refs = new Set(vars.list.map((v) => `{{${v.key}}}`))
    const ctx: MaskContext = { revealed: refs }
    const headers: HeaderDto[] = e.request.headers.map(([name, value]) => {
      const credential = /^(\w+)(\s+)(\S+)$/.exec(value)
      const replaced =
        name.toLowerCase() === 'authorization' && credential && vars.ref(credential[3]!)
          ? `${credential[1]}${credential[2]}${vars.ref(credential[3]!)}`
          : (vars.ref(value) ?? value)
      const shown = redactHeaderValue(name, replaced, ctx)
      if (shown === replaced) return [name, shown]
      vars.add(`${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_header`, value, true, `The ${name} header.`)
      return [name, vars.ref(value) ?? shown]
    })
    const form = isForm(e)
    const view: ExchangeDto = {
      ...e,
      request: {
        method: e.request.method,
        url: redactUrl(templateUrl(e.request.url, vars), ctx),
        headers,
        ...(e.request.body ? { body: templateBody(e.request.body, form, vars, ctx) } : {}),
      },
      // Only what the collection says of the answer and of each JWT (where it sits, how it is signed).
      ...(e.response ? { response: { status: e.response.status, headers: [] } } : {}),
      jwts: e.jwts.map((j) => ({
        location: j.location,
        header: { alg: j.header.alg, ...(j.header.kid !== undefined ? { kid: j.header.kid } : {}) },
        times: {},
        signature: j.signature,
        compact: '',
      })),
      redacted: true,
    }
    if (!e.response) delete view.response
    delete view.secrets
    delete view.diagnosis
    delete view.conformance
    delete view.error
    return view
  })
  return { exchanges, variables: vars.list }
}

/** A Postman environment (the file Postman and newman read with `-e`): every variable with its value. */
export function toPostmanEnvironment(name: string, variables: PostmanVariable[], exportedAt: string): object {
  return {
    name,
    values: variables.map((v) => ({
      key: v.key,
      value: v.value,
      type: v.secret ? 'secret' : 'default',
      enabled: true,
    })),
    _postman_variable_scope: 'environment',
    _postman_exported_at: exportedAt,
    _postman_exported_using: 'OB Console',
  }
}
