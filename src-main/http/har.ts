import type { BodyDto, ExchangeDto, HeaderDto } from '../contract/exchange.ts'
import { headerValue } from '../core/header-lookup.ts'

const round = (ms: number) => Math.round(ms * 100) / 100

const header = headerValue

function queryString(url: string): Array<{ name: string; value: string }> {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

function content(body: BodyDto | undefined, headers: HeaderDto[]) {
  return {
    size: body?.size ?? 0,
    mimeType: body?.contentType ?? header(headers, 'content-type') ?? '',
    ...(body ? { text: body.text, ...(body.encoding === 'base64' ? { encoding: 'base64' } : {}) } : {}),
    ...(body?.dropped
      ? { comment: `body of ${body.size} bytes ${body.dropped.reason}` }
      : body?.truncated
        ? { comment: `cut at ${body.text.length} of ${body.size} bytes` }
        : {}),
  }
}

/** How the exchange's environment trusted the bank's servers: `exact-ca` with the CA bundle's file, `system`, `off`. */
export interface HarTrust {
  trust?: 'exact-ca' | 'system' | 'off'
  caPath?: string
}

/** `_trust` of an entry: the environment's TLS setting and, for an exact CA, the bundle file a replay passes (`--cacert`). */
const withTrust = (t: HarTrust | undefined) =>
  t?.trust
    ? { _trust: { verification: t.trust, ...(t.trust === 'exact-ca' && t.caPath ? { caFile: t.caPath } : {}) } }
    : {}

/**
 * The entry's comment: the step's label, and the flow step that failed on the exchange with its code
 * (`consent (POST …) · step "consent" failed: OB_ERROR: Creating the consent failed: 400.`).
 */
function entryComment(e: ExchangeDto): string | undefined {
  const failed = e.failedStep
    ? `step "${e.failedStep.step}" failed: ${e.failedStep.code}: ${e.failedStep.what}`
    : undefined
  return [e.label, failed].filter(Boolean).join(' · ') || undefined
}

/** The HAR timings of an exchange: a reused connection has no connect or ssl time. */
function harTimings(e: ExchangeDto) {
  const receive = Math.max(
    0,
    round(e.timings.total - e.timings.connect - e.timings.tls - e.timings.firstByte - (e.timings.dns ?? 0)),
  )
  // HAR 1.2: `connect` includes `ssl`, and `time` is the sum of the timings (`ssl` not counted twice).
  const timings = {
    blocked: -1,
    dns: e.timings.dns ?? -1,
    connect: e.reusedConnection ? -1 : round(e.timings.connect + e.timings.tls),
    ssl: e.reusedConnection ? -1 : e.timings.tls,
    send: 0,
    wait: e.timings.firstByte,
    receive,
    // A connection opened while the request was prepared: its setup before the request, outside `time`.
    ...(e.timings.preconnected !== undefined ? { _preconnected: e.timings.preconnected } : {}),
  }
  return timings
}

/**
 * The exchanges as a HAR 1.2 document (for browser devtools, Charles, Postman...). Built from the views
 * given: redacted views give a redacted HAR; a body the log no longer keeps is empty, with a comment saying so. Timings map
 * TCP connect + TLS -> connect (HAR counts `ssl` inside `connect`), TLS -> ssl, first byte -> wait, the rest -> receive;
 * `time` is their sum. `_trust` says how the environment checked the bank's servers (`trustOf`): `exact-ca` with the
 * CA bundle's file, `system`, `off`. An exchange a flow step failed on names the step and its code in the entry's
 * `comment`, and carries them as `_failedStep`; `_exchangeId` is the exchange's id (as `--json` and the inspector name
 * it). Valid against the HAR 1.2 schema (`har-validator` in the tests).
 *
 * @example writeFileSync('flow.har', JSON.stringify(toHar(log.list()), null, 2))
 */
export function toHar(
  exchanges: ExchangeDto[],
  creator = { name: 'OB Console', version: '0.1.0' },
  trustOf?: (exchange: ExchangeDto) => HarTrust | undefined,
): object {
  return {
    log: {
      version: '1.2',
      creator,
      pages: [],
      entries: exchanges.map((e) => {
        const req = e.request
        const res = e.response
        const comment = entryComment(e)
        const timings = harTimings(e)
        return {
          startedDateTime: e.startedAt,
          time: round(
            [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
              .filter((t) => t > 0)
              .reduce((a, b) => a + b, 0),
          ),
          request: {
            method: req.method,
            url: req.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: req.headers.map(([name, value]) => ({ name, value })),
            queryString: queryString(req.url),
            headersSize: -1,
            bodySize: req.body?.size ?? 0,
            ...(req.body
              ? {
                  postData: {
                    mimeType: req.body.contentType ?? header(req.headers, 'content-type') ?? '',
                    text: req.body.text,
                    ...(req.body.dropped
                      ? { comment: `body of ${req.body.size} bytes ${req.body.dropped.reason}` }
                      : {}),
                  },
                }
              : {}),
          },
          response: {
            status: res?.status ?? 0,
            statusText: res?.statusText ?? '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: (res?.headers ?? []).map(([name, value]) => ({ name, value })),
            content: content(res?.body, res?.headers ?? []),
            redirectURL: res ? (header(res.headers, 'location') ?? '') : '',
            headersSize: -1,
            bodySize: res?.body?.size ?? -1,
            ...(e.error
              ? { _error: { code: e.error.code, what: e.error.what, cause: e.error.cause, fix: e.error.fix } }
              : {}),
          },
          cache: {},
          timings,
          ...(comment ? { comment } : {}),
          _exchangeId: e.id,
          ...(e.failedStep ? { _failedStep: { ...e.failedStep } } : {}),
          _redacted: e.redacted,
          ...(e.tls ? { _tls: e.tls } : {}),
          ...withTrust(trustOf?.(e)),
          ...(e.presentedCertificate ? { _clientCertificate: e.presentedCertificate } : {}),
        }
      }),
    },
  }
}
