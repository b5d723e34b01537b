import { randomUUID } from 'node:crypto'
import type { FlowContext, FlowResponse } from '../flow-context.ts'
import type { StepScope } from '../step-machine.ts'

/**
 * A GET to the bank with a bearer token and a fresh `x-fapi-interaction-id` (plus any extra headers),
 * noted as one of the step's exchanges.
 */
export async function bearerGet(
  ctx: FlowContext,
  scope: Pick<StepScope, 'exchange'>,
  url: string,
  token: string,
  label: string,
  extra: Record<string, string> = {},
): Promise<FlowResponse> {
  const res = await ctx.http.send({
    method: 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'x-fapi-interaction-id': randomUUID(),
      ...extra,
    },
    label,
  })
  scope.exchange(res.exchangeId)
  return res
}
