import { randomUUID } from 'node:crypto'
import type { FlowContext, FlowRequest, FlowResponse } from '../flow-context.ts'
import type { StepScope } from '../step-machine.ts'

/** A URL of one of the bank's APIs: the environment's base URL, the API's path (`/open-banking/v4.0/aisp`), then `path`. */
export function apiUrl(ctx: FlowContext, api: 'ais' | 'pis', path: string): string {
  return `${ctx.environment.baseUrl}${ctx.environment.apiPaths[api]}${path}`
}

/** Sends a request with the bearer token first among its headers, and notes the exchange as one of the step's. */
async function bearerSend(
  ctx: FlowContext,
  scope: Pick<StepScope, 'exchange'>,
  token: string,
  request: FlowRequest,
): Promise<FlowResponse> {
  const res = await ctx.http.send({ ...request, headers: { authorization: `Bearer ${token}`, ...request.headers } })
  scope.exchange(res.exchangeId)
  return res
}

/**
 * A GET to the bank with a bearer token and a fresh `x-fapi-interaction-id` (plus any extra headers),
 * noted as one of the step's exchanges.
 */
export function bearerGet(
  ctx: FlowContext,
  scope: Pick<StepScope, 'exchange'>,
  url: string,
  token: string,
  label: string,
  extra: Record<string, string> = {},
): Promise<FlowResponse> {
  const headers = { accept: 'application/json', 'x-fapi-interaction-id': randomUUID(), ...extra }
  return bearerSend(ctx, scope, token, { method: 'GET', url, headers, label })
}

/** What a POST adds to its JSON body: headers sent before the interaction id, and whether the client may retry it. */
export interface PostOptions {
  /** `x-idempotency-key`, `x-jws-signature`... */
  headers?: Record<string, string>
  /** Retry a lost answer (only with an `x-idempotency-key`: each try sends the same key and body). */
  retry?: boolean
}

/**
 * A POST of a JSON body to the bank with a bearer token and a fresh `x-fapi-interaction-id`, noted as one
 * of the step's exchanges. The body is sent as given: the bytes a signature was made over.
 */
export function bearerPost(
  ctx: FlowContext,
  scope: Pick<StepScope, 'exchange'>,
  url: string,
  token: string,
  body: string,
  label: string,
  options: PostOptions = {},
): Promise<FlowResponse> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...options.headers,
    'x-fapi-interaction-id': randomUUID(),
  }
  return bearerSend(ctx, scope, token, {
    method: 'POST',
    url,
    headers,
    body,
    label,
    ...(options.retry ? { retry: true } : {}),
  })
}
