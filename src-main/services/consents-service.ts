import { randomUUID } from 'node:crypto'
import type { ConsentReadDto, ConsentRecordDto } from '../contract/consents.ts'
import type { FlowHead, FlowProgress } from '../contract/flows.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { EnvironmentClocks } from './environment-clock.ts'
import { unexpectedAnswer } from '../flows/common/failures.ts'
import type { EnvironmentsService } from './environments-service.ts'
import { replaceConsent, type ConsentRecord, type ConsoleStateStore } from './persistence/console-state-store.ts'
import type { ClientTokenFor } from './registered-clients.ts'
import type { HttpFor, RegistrationService } from './registration-service.ts'
import { jsonObject } from '../http/json-body.ts'

const DAY_MS = 86_400_000
/** Transactions older than this many days after the last SCA need the PSU to authenticate again. */
export const SCA_WINDOW_DAYS = 90

/** Flow steps whose completion the consent list follows. */
const CONSENT_STEPS: Record<string, 'ais' | 'pis'> = { consent: 'ais', 'payment-consent': 'pis' }
const SCA_STEP = 'code-exchange'

/**
 * What a step tells of its consent's status: the code exchanged (AUTH: the PSU authorised it), the PSU's
 * refusal returned (RJCT), a payment made with it (COND: a consent pays once). Undefined for any other step.
 */
function statusSeen(progress: FlowProgress): string | undefined {
  const { id, status, error } = progress.step
  if (status === 'done' && id === SCA_STEP) return 'AUTH'
  if (status === 'done' && id === 'domestic-payment') return 'COND'
  if (status === 'failed' && error?.code === 'AUTH_RETURN_ERROR' && error.details?.error === 'access_denied')
    return 'RJCT'
  return undefined
}

/**
 * The consents the console created, per client: recorded as flows create them, read from the bank
 * (GET), revoked (DELETE, account access consents), with their expiry and the time of the last SCA.
 * Kept in the console state file, so the list survives restarts and is shared by the CLI and the app.
 */
export class ConsentsService {
  constructor(
    private readonly state: ConsoleStateStore,
    private readonly registration: RegistrationService,
    private readonly environments: EnvironmentsService,
    private readonly httpFor: HttpFor,
    private readonly tokenFor: ClientTokenFor,
    private readonly clock: Clock,
    /** Each environment's clock: a consent's days to expiry are counted on its bank's (the local sandbox's moved). */
    private readonly clocks?: EnvironmentClocks,
  ) {}

  /** Follows a flow's progress: a consent step done records the consent; the code exchange marks the SCA. */
  onProgress(flow: FlowHead | undefined, progress: FlowProgress): void {
    if (!flow?.clientId) return
    const record = this.#recordOf(flow, flow.clientId, progress)
    const seen = statusSeen(progress)
    const sca = progress.step.status === 'done' && progress.step.id === SCA_STEP
    if (!record && !seen && !sca) return
    const now = this.clock.now().toISOString()
    // One write for what this step tells: the consent it created, or the status seen and the time of the SCA.
    this.state.update((d) => {
      if (record) {
        const known = d.consents.findIndex((c) => c.consentId === record.consentId)
        if (known >= 0) d.consents.splice(known, 1)
        d.consents.push(record)
      }
      // The status the flow last saw: the PSU authorised (a code was exchanged), refused it, or the payment spent it.
      replaceConsent(
        d,
        (x) => x.flowId === flow.id,
        (c) => ({ ...(seen && c.status !== 'Deleted' ? { status: seen } : {}), ...(sca ? { lastScaAt: now } : {}) }),
      )
    })
  }

  /** The consent a consent step just created, as the console records it. */
  #recordOf(flow: FlowHead, clientId: string, progress: FlowProgress): ConsentRecord | undefined {
    const kind = CONSENT_STEPS[progress.step.id]
    if (progress.step.status !== 'done' || !kind || (flow.kind !== 'ais' && flow.kind !== 'pis')) return undefined
    const out = progress.step.output as { consentId?: string; status?: string; expirationDateTime?: string } | undefined
    if (!out?.consentId) return undefined
    return {
      consentId: out.consentId,
      kind,
      clientId,
      environmentId: flow.environmentId,
      flowId: flow.id,
      createdAt: this.clock.now().toISOString(),
      ...(out.status ? { status: out.status } : {}),
      // The expiry the bank gave in its answer, so the list counts down before the consent is first read again.
      ...(typeof out.expirationDateTime === 'string' ? { expirationDateTime: out.expirationDateTime } : {}),
    }
  }

  toDto(r: ConsentRecord): ConsentRecordDto {
    const now = this.clocks ? this.clocks.now(r.environmentId) : this.clock.now().getTime()
    const exp = r.expirationDateTime ? Date.parse(r.expirationDateTime) : NaN
    const sca = r.lastScaAt ? Date.parse(r.lastScaAt) : NaN
    return {
      ...r,
      ...(Number.isFinite(exp) ? { daysToExpiry: Math.floor((exp - now) / DAY_MS) } : {}),
      ...(Number.isFinite(sca) ? { scaWindowEndsAt: new Date(sca + SCA_WINDOW_DAYS * DAY_MS).toISOString() } : {}),
    }
  }

  /** The consents created, newest first, optionally for one client or environment. */
  list(filter: { clientId?: string; environmentId?: string } = {}): ConsentRecordDto[] {
    return this.state
      .read()
      .consents.filter(
        (c) =>
          (!filter.clientId || c.clientId === filter.clientId) &&
          (!filter.environmentId || c.environmentId === filter.environmentId),
      )
      .reverse()
      .map((c) => this.toDto(c))
  }

  record(consentId: string): ConsentRecord {
    const r = this.state.read().consents.find((c) => c.consentId === consentId)
    if (!r)
      throw new AppError('NOT_FOUND', {
        what: `The console created no consent "${consentId}".`,
        cause: 'Only consents made through this console (its data directory) are listed.',
        fix: 'Pick one from the consent list (ob-console consent list), or check --data-dir.',
      })
    return r
  }

  #url(r: ConsentRecord): string {
    const env = this.environments.get(r.environmentId)
    return r.kind === 'ais'
      ? `${env.baseUrl}${env.apiPaths.ais}/account-access-consents/${encodeURIComponent(r.consentId)}`
      : `${env.baseUrl}${env.apiPaths.pis}/domestic-payment-consents/${encodeURIComponent(r.consentId)}`
  }

  /** GET the consent from the bank with a client-credentials token; the record takes its status and expiry. */
  async get(consentId: string): Promise<ConsentReadDto> {
    const r = this.record(consentId)
    const client = this.registration.record(r.clientId)
    const token = await this.tokenFor(r.clientId, r.kind === 'ais' ? 'accounts' : 'payments')
    const http = await this.httpFor(r.environmentId, client.tppId)
    await this.clocks?.refresh(r.environmentId) // its days to expiry on the bank's clock
    const res = await http.send({
      method: 'GET',
      url: this.#url(r),
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'x-fapi-interaction-id': randomUUID() },
      label: `${r.kind === 'ais' ? 'account access' : 'payment'} consent (read)`,
    })
    const answer = jsonObject(res.json)
    if (res.status !== 200 || !answer.Data)
      throw unexpectedAnswer(
        res,
        `Reading consent ${consentId} failed`,
        r.kind === 'ais'
          ? 'A deleted account access consent cannot be read again (v4.0 answers 400); list the consents to see its last known status.'
          : 'Check the consent id and that the client created it.',
      )
    const data = jsonObject(answer.Data)
    const updated =
      this.state
        .update((d) => {
          replaceConsent(
            d,
            (x) => x.consentId === consentId,
            () => ({
              ...(typeof data.Status === 'string' ? { status: data.Status } : {}),
              ...(Array.isArray(data.Permissions) ? { permissions: data.Permissions as string[] } : {}),
              ...(typeof data.ExpirationDateTime === 'string' ? { expirationDateTime: data.ExpirationDateTime } : {}),
              checkedAt: this.clock.now().toISOString(),
            }),
          )
        })
        .consents.find((c) => c.consentId === consentId) ?? r
    return { consent: this.toDto(updated), data, exchangeId: res.exchangeId }
  }

  /** DELETE (revoke) an account access consent; the record stays, marked `Deleted`. */
  async delete(consentId: string): Promise<{ consent: ConsentRecordDto; exchangeId: string }> {
    const r = this.record(consentId)
    if (r.kind !== 'ais')
      throw new AppError('INVALID_INPUT', {
        what: `Consent ${consentId} is a payment consent.`,
        cause: 'Open Banking v4.0 has no DELETE for domestic payment consents; they end when used or when they expire.',
        fix: 'Only account access consents can be revoked.',
      })
    const client = this.registration.record(r.clientId)
    const token = await this.tokenFor(r.clientId, 'accounts')
    const http = await this.httpFor(r.environmentId, client.tppId)
    const res = await http.send({
      method: 'DELETE',
      url: this.#url(r),
      headers: { authorization: `Bearer ${token}`, 'x-fapi-interaction-id': randomUUID() },
      label: 'account access consent (delete)',
    })
    if (res.status !== 204)
      throw unexpectedAnswer(
        res,
        `Deleting consent ${consentId} failed`,
        'It may already be deleted; read it (consent get) to see its status.',
      )
    const updated =
      this.state
        .update((d) => {
          replaceConsent(
            d,
            (x) => x.consentId === consentId,
            () => ({ status: 'Deleted', checkedAt: this.clock.now().toISOString() }),
          )
        })
        .consents.find((c) => c.consentId === consentId) ?? r
    return { consent: this.toDto(updated), exchangeId: res.exchangeId }
  }

  /** The consents that expire within `days` (or have expired and are not yet marked so), for the expiry watch. */
  expiring(days: number): ConsentRecordDto[] {
    return this.list().filter((c) => c.daysToExpiry !== undefined && c.daysToExpiry <= days && c.status !== 'Deleted')
  }
}
