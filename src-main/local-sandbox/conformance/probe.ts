import { createHash } from 'node:crypto'
import type { Context } from 'koa'
import type { TokenInfo } from '../auth/types.ts'
import { ObApiError, UnauthorisedError } from '../http/ob-error.ts'
import type { ConformanceRuleId } from './rules.ts'

/** One outcome of one check on one request. */
export interface ProbeEvent {
  rule: ConformanceRuleId
  ok: boolean
  detail?: string
}

/** A transactions page asked for: which list (consent, path and filters), which page, of how many. */
export interface PageEvent {
  listing: string
  page: number
  totalPages: number
}

/** SHA-256 of a token: the recorder never keeps a token itself. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/**
 * What the checks of one request found, gathered while the request runs and handed to the recorder when
 * it ends (when the client is known: a token checked early names it, a failure late is still its own).
 */
export class ConformanceProbe {
  readonly events: ProbeEvent[] = []
  readonly pages: PageEvent[] = []
  /** The client behind a valid access token. */
  clientId?: string
  /**
   * A valid token, its sandbox expiry (seconds) and the certificate it is bound to. The token itself stays in
   * memory, in the recorder's queue: the recorder hashes it (`tokenHash`) only when it stores or looks it up,
   * behind the answer, not on every request.
   */
  acceptedToken?: { token: string; clientId: string; expiresAt: number; thumbprint?: string }
  /** A token the verifier refused (unknown, expired or revoked). */
  refusedToken?: string

  pass(rule: ConformanceRuleId): void {
    this.events.push({ rule, ok: true })
  }

  fail(rule: ConformanceRuleId, detail: string): void {
    this.events.push({ rule, ok: false, detail })
  }

  tokenAccepted(token: string, info: TokenInfo): void {
    this.clientId = info.clientId
    const bound = info.certificateThumbprint ? { thumbprint: info.certificateThumbprint } : {}
    this.acceptedToken = { token, clientId: info.clientId, expiresAt: info.expiresAt, ...bound }
  }

  tokenRefused(token: string): void {
    this.refusedToken = token
  }

  page(event: PageEvent): void {
    this.pages.push(event)
  }
}

/** Does nothing: the AIS and PIS routes run without a recorder too (tests, harnesses). */
class NoProbe extends ConformanceProbe {
  override pass(): void {}
  override fail(): void {}
  override tokenAccepted(): void {}
  override tokenRefused(): void {}
  override page(): void {}
}

const NO_PROBE = new NoProbe()

/** The probe of this request (a no-op one when no conformance middleware runs). */
export function conformance(ctx: Pick<Context, 'state'>): ConformanceProbe {
  const probe = (ctx.state as { conformance?: ConformanceProbe } | undefined)?.conformance
  return probe ?? NO_PROBE
}

/** One line of what a refusal said: its OB codes and messages, or the 401's reason. */
export function refusalDetail(err: unknown): string | undefined {
  if (err instanceof ObApiError)
    return err.details.map((d) => `${d.code}${d.path ? ` (${d.path})` : ''}: ${d.message}`).join('; ')
  if (err instanceof UnauthorisedError) return `401: ${err.reason}`
  return undefined
}

/**
 * Runs a check that throws the sandbox's refusal (an ObApiError or a 401): recorded under `rule` as
 * passed when it returns, failed with the refusal's words when it throws one. Other errors pass through
 * unrecorded.
 */
export function checked<T>(ctx: Pick<Context, 'state'>, rule: ConformanceRuleId, run: () => T): T {
  const failed = (err: unknown): never => {
    const detail = refusalDetail(err)
    if (detail !== undefined) conformance(ctx).fail(rule, detail)
    throw err
  }
  const passed = <V>(value: V): V => {
    conformance(ctx).pass(rule)
    return value
  }
  let value: T
  try {
    value = run()
  } catch (err) {
    return failed(err)
  }
  // An asynchronous check passes or fails when its promise settles.
  return value instanceof Promise ? (value.then(passed, failed) as T) : passed(value)
}

/** `checked` for an asynchronous check. */
export function checkedAsync<T>(
  ctx: Pick<Context, 'state'>,
  rule: ConformanceRuleId,
  run: () => Promise<T>,
): Promise<T> {
  return checked(ctx, rule, run)
}
