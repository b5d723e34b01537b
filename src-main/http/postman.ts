import type { ExchangeDto } from '../contract/exchange.ts'
import type { DecodedJwtDto } from '../contract/jwt.ts'
import type { PostmanVariable } from './postman-variables.ts'
import { headerValue } from '../core/header-lookup.ts'

/** The Postman Collection v2.1 schema's address, as Postman expects it in `info.schema`. */
export const POSTMAN_V21_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json'

/** Headers Postman (or its HTTP client) sets itself: kept out of the request, as Postman would duplicate them. */
const SET_BY_CLIENT = new Set(['content-length', 'host', 'connection', 'transfer-encoding'])

/** The TLS files a replay needs, as the collection's description names them. */
export interface PostmanTls {
  /** The client (transport) certificate, PEM. */
  certPath?: string
  /** The client certificate's private key, PEM: a path only, never its content. */
  keyPath?: string
  /** The CA bundle the environment trusts exactly (`exact-ca`). */
  caPath?: string
  /** How the environment checks the bank's servers. */
  verification?: 'exact-ca' | 'system' | 'off'
}

export interface PostmanCollectionOptions {
  /** The exchanges carry `{{variables}}` (see `templateExchanges`): listed in the collection, values left to the environment file. */
  variables?: PostmanVariable[]
  tls?: PostmanTls
}

export interface PostmanCollection {
  info: { name: string; description: string; schema: string }
  variable?: Array<{ key: string; value: string; type: 'default' | 'secret'; description: string }>
  item: Array<{
    name: string
    protocolProfileBehavior?: { followRedirects: boolean }
    request: {
      method: string
      header: Array<{ key: string; value: string }>
      url: {
        raw: string
        protocol?: string
        host: string[]
        port?: string
        path: string[]
        query?: Array<{ key: string; value: string | null }>
      }
      body?: { mode: 'raw'; raw: string; options?: { raw: { language: 'json' | 'xml' | 'text' } } }
      description: string
    }
  }>
}

/** The URL split as Postman keeps it; a URL starting with a `{{variable}}` (the origin) keeps it as its host. */
function url(raw: string): PostmanCollection['item'][number]['request']['url'] {
  const variable = /^(\{\{[A-Za-z0-9_]+\}\})(.*)$/.exec(raw)
  const u = variable ? undefined : new URL(raw)
  const rest = variable ? variable[2]! : raw
  const cut = rest.search(/[?#]/)
  const pathname = u ? u.pathname : cut < 0 ? rest : rest.slice(0, cut)
  const search = u ? u.search : cut < 0 || rest[cut] !== '?' ? '' : rest.slice(cut).replace(/#.*$/, '')
  return {
    raw,
    ...(u ? { protocol: u.protocol.replace(/:$/, '') } : {}),
    host: u ? u.hostname.split('.') : [variable![1]!],
    ...(u?.port ? { port: u.port } : {}),
    path: pathname.split('/').filter((p) => p.length > 0),
    // Kept encoded, as sent: Postman writes query members back into the URL as they are.
    ...(search
      ? {
          query: search
            .slice(1)
            .split('&')
            .map((member) => {
              const eq = member.indexOf('=')
              return eq < 0 ? { key: member, value: null } : { key: member.slice(0, eq), value: member.slice(eq + 1) }
            }),
        }
      : {}),
  }
}

/** The path of a URL, or of one starting with a `{{variable}}`. */
const pathOf = (raw: string) =>
  url(raw)
    .path.map((p) => `/${p}`)
    .join('') || '/'

const header = headerValue

/** What must be signed again for this request, and with what: Postman cannot sign, the console holds the key. */
function signingSteps(jwts: DecodedJwtDto[]): string[] {
  const steps: string[] = []
  for (const j of jwts) {
    if (/^response|^fragment|^header location/i.test(j.location)) continue
    const alg = typeof j.header.alg === 'string' ? j.header.alg : 'the same algorithm'
    const kid = typeof j.header.kid === 'string' ? ` with the key of kid \`${j.header.kid}\`` : ''
    if (j.signature === 'detached')
      steps.push(
        `- \`${j.location}\`: a detached JWS (${alg})${kid} over the exact request body; sign the body you send again and put the new signature in this header.`,
      )
    else if (j.signature === 'present')
      steps.push(
        `- \`${j.location}\`: a JWT signed ${alg}${kid}; make a new one (fresh \`jti\`, \`iat\`, \`exp\`) signed with your signing key and put it here. This one is single-use or expires.`,
      )
    else
      steps.push(
        `- \`${j.location}\`: an unsigned JWT (\`alg: none\`); it can be sent again as it is when the bank accepts unsigned ones.`,
      )
  }
  return steps
}

/** What a replay needs for mutual TLS and for trusting the bank's servers, newman's flags and Postman's settings. */
function tlsNote(tls: PostmanTls = {}): string {
  const cert = tls.certPath ?? 'transport.pem'
  const key = tls.keyPath ?? 'transport.key'
  const ca =
    tls.verification === 'off'
      ? " --insecure (the environment does not verify the bank's certificates)"
      : tls.verification === 'exact-ca' || tls.caPath
        ? ` --ssl-extra-ca-certs ${tls.caPath ?? 'ca-bundle.pem'}`
        : ''
  return [
    `Mutual TLS: the client (transport) certificate ${cert} and its private key ${key}${tls.certPath && tls.keyPath ? '' : " (save the identity's transport certificate and key under these names)"}${tls.verification === 'exact-ca' || tls.caPath ? `; the bank's servers are trusted through the CA bundle ${tls.caPath ?? 'ca-bundle.pem'}` : ''}.`,
    `newman: newman run COLLECTION -e ENVIRONMENT --ssl-client-cert ${cert} --ssl-client-key ${key}${ca}`,
    `Postman: Settings > Certificates: add the client certificate (CRT file ${cert}, KEY file ${key}) for the bank's hosts${tls.verification === 'off' ? '; turn off SSL certificate verification (Settings > General), as the console did' : tls.verification === 'exact-ca' || tls.caPath ? `; CA certificates: ${tls.caPath ?? 'ca-bundle.pem'}` : ''}.`,
    'Private keys are never in the collection or the environment: the key is passed by its path.',
  ].join('\n')
}

/** What a request is, and what Postman needs before sending it (client certificate, signatures, a body to restore). */
function itemDescription(e: ExchangeDto): string {
  const req = e.request
  const body = req.body
  const steps = signingSteps(e.jwts)
  return [
    `${e.label ?? 'request'}: ${req.method} ${req.url}${e.response ? `, answered ${e.response.status}` : ', no answer'} on ${e.startedAt}.`,
    ...(e.presentedCertificate
      ? [
          `Mutual TLS: the client certificate ${e.presentedCertificate.subjectDn} was presented; configure it (and its key) for this host in Postman.`,
        ]
      : []),
    ...(steps.length ? ["Signing: Postman cannot sign with the console's keys. Before sending:", ...steps] : []),
    ...(body?.dropped
      ? [`The body (${body.size} bytes) is ${body.dropped.reason}.`]
      : body?.truncated
        ? [`The body was cut at ${body.text.length} of ${body.size} bytes in the log.`]
        : []),
    ...(body?.encoding === 'base64' ? ['The body is binary, base64 here: decode it before sending.'] : []),
  ].join('\n\n')
}

/**
 * The exchanges as a Postman Collection v2.1, one request per exchange in order: method, URL, the headers as
 * sent (except those Postman sets itself) and the body, from the views given, so masked secrets stay masked
 * (`…`, `••••••••`). Each request's description says what Postman cannot do: mutual TLS
 * needs the identity's certificate and key in Postman's settings, and every JWT the request carries (client
 * assertion, request object, registration, `x-jws-signature`) must be signed again with the signing key,
 * which the console never exports.
 *
 * @example writeFileSync('journey.postman_collection.json', JSON.stringify(toPostmanCollection(views, 'AIS journey'), null, 2))
 */
export function toPostmanCollection(
  exchanges: ExchangeDto[],
  name: string,
  options: PostmanCollectionOptions = {},
): PostmanCollection {
  const masked = exchanges.some((e) => e.redacted)
  const vars = options.variables
  return {
    info: {
      name,
      description: [
        `${exchanges.length} requests exported by OB Console, in the order they were sent.`,
        vars
          ? `What changes from run to run is a variable (${vars.map((v) => `{{${v.key}}}`).join(', ')}): their values are in the Postman environment written with the collection (ob-console --postman-env FILE, mode 0600: it holds the tokens), or set them yourself. Other secrets (client assertions, authorisation codes: single-use) are masked.`
          : masked
            ? 'Secrets are masked (…, ••••••••): replace them before sending (Reveal in the console shows one).'
            : 'No secret in these requests is masked.',
        tlsNote(options.tls),
        'Sign JWTs outside Postman (see each request): the console never exports a private key.',
      ].join('\n\n'),
      schema: POSTMAN_V21_SCHEMA,
    },
    ...(vars
      ? {
          variable: vars.map((v) => ({
            key: v.key,
            value: v.secret ? '' : v.value,
            type: v.secret ? ('secret' as const) : ('default' as const),
            description: v.description,
          })),
        }
      : {}),
    item: exchanges.map((e, i) => {
      const req = e.request
      const body = req.body
      const type = body?.contentType ?? header(req.headers, 'content-type') ?? ''
      const description = itemDescription(e)
      return {
        name: `${i + 1}. ${e.label ? `${e.label}: ` : ''}${req.method} ${pathOf(req.url)}`,
        // A redirect (the authorisation endpoint's) is shown, not followed to the loopback listener.
        ...(e.response && e.response.status >= 300 && e.response.status < 400
          ? { protocolProfileBehavior: { followRedirects: false } }
          : {}),
        request: {
          method: req.method,
          header: req.headers
            .filter(([k]) => !SET_BY_CLIENT.has(k.toLowerCase()))
            .map(([key, value]) => ({ key, value })),
          url: url(req.url),
          ...(body
            ? {
                body: {
                  mode: 'raw' as const,
                  raw: body.text,
                  ...(/json/i.test(type)
                    ? { options: { raw: { language: 'json' as const } } }
                    : /xml/i.test(type)
                      ? { options: { raw: { language: 'xml' as const } } }
                      : {}),
                },
              }
            : {}),
          description,
        },
      }
    }),
  }
}
