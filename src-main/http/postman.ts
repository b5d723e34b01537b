import type { ExchangeDto, HeaderDto } from '../contract/exchange.ts'
import type { DecodedJwtDto } from '../contract/jwt.ts'

/** The Postman Collection v2.1 schema's address, as Postman expects it in `info.schema`. */
export const POSTMAN_V21_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json'

/** Headers Postman (or its HTTP client) sets itself: kept out of the request, as Postman would duplicate them. */
const SET_BY_CLIENT = new Set(['content-length', 'host', 'connection', 'transfer-encoding'])

export interface PostmanCollection {
  info: { name: string; description: string; schema: string }
  item: Array<{
    name: string
    request: {
      method: string
      header: Array<{ key: string; value: string }>
      url: {
        raw: string
        protocol: string
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

function url(raw: string): PostmanCollection['item'][number]['request']['url'] {
  const u = new URL(raw)
  return {
    raw,
    protocol: u.protocol.replace(/:$/, ''),
    host: u.hostname.split('.'),
    ...(u.port ? { port: u.port } : {}),
    path: u.pathname.split('/').filter((p) => p.length > 0),
    // Kept encoded, as sent: Postman writes query members back into the URL as they are.
    ...(u.search
      ? {
          query: u.search
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

const header = (headers: HeaderDto[], name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1]

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

/**
 * The exchanges as a Postman Collection v2.1, one request per exchange in order: method, URL, the headers as
 * sent (except those Postman sets itself) and the body, from the views given, so masked secrets stay masked
 * (`…`, `••••••••`) unless revealed. Each request's description says what Postman cannot do: mutual TLS
 * needs the identity's certificate and key in Postman's settings, and every JWT the request carries (client
 * assertion, request object, registration, `x-jws-signature`) must be signed again with the signing key,
 * which the console never exports.
 *
 * @example writeFileSync('journey.postman_collection.json', JSON.stringify(toPostmanCollection(views, 'AIS journey'), null, 2))
 */
export function toPostmanCollection(exchanges: ExchangeDto[], name: string): PostmanCollection {
  const masked = exchanges.some((e) => e.redacted)
  return {
    info: {
      name,
      description: [
        `${exchanges.length} requests exported by OB Console, in the order they were sent.`,
        masked
          ? 'Secrets are masked (…, ••••••••) except those revealed in the console: replace them before sending.'
          : 'Every secret in these requests was revealed in the console before the export.',
        'Private keys are never exported: add the transport certificate and key under Settings > Certificates for mutual TLS, and sign JWTs outside Postman (see each request).',
      ].join('\n\n'),
      schema: POSTMAN_V21_SCHEMA,
    },
    item: exchanges.map((e, i) => {
      const req = e.request
      const body = req.body
      const type = body?.contentType ?? header(req.headers, 'content-type') ?? ''
      const steps = signingSteps(e.jwts)
      const description = [
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
      return {
        name: `${i + 1}. ${e.label ? `${e.label}: ` : ''}${req.method} ${new URL(req.url).pathname}`,
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
