/** Contract DTOs for renderer tests. */
import type { ExchangeSummaryDto } from '../../../../src-main/contract/exchange-summaries.ts'
import type { ClientDto, EnvironmentDto, TppIdentityDto } from '../../../../src-main/contract/environments.ts'
import type { FlowState, StepState } from '../../../../src-main/contract/flows.ts'

export const localEnv: EnvironmentDto = {
  id: 'local-sandbox',
  name: 'Local sandbox',
  kind: 'local-sandbox',
  baseUrl: 'https://127.0.0.1:8443',
  authUrl: 'https://127.0.0.1:8444',
  apiPaths: {
    registration: '/dynamic-client-registration/v3.2/register',
    ais: '/open-banking/v4.0/aisp',
    pis: '/open-banking/v4.0/pisp',
    o3: '/o3/v1.0',
  },
  appScheme: 'bank',
  tlsVerification: 'exact-ca',
  allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
  builtIn: true,
}

export const tpp: TppIdentityDto = {
  id: 'tpp-1',
  name: 'Local sandbox TPP',
  orgId: 'org-1',
  softwareId: 'sw-1',
  redirectUris: ['http://127.0.0.1:53682/callback'],
  createdAt: '2026-11-22T10:00:00.000Z',
}

export function client(clientId: string, profile: string, environmentId = 'local-sandbox'): ClientDto {
  return {
    clientId,
    environmentId,
    tppId: 'tpp-1',
    authMethod: 'private_key_jwt',
    scope: 'openid accounts payments',
    redirectUris: ['http://127.0.0.1:53682/callback'],
    registration: { client_id: clientId, sandbox_profile: profile },
    hasSecret: false,
    registeredAt: '2026-11-22T10:00:00.000Z',
  }
}

export function step(id: string, status: StepState['status'] = 'idle', extra: Partial<StepState> = {}): StepState {
  return {
    id,
    title: id[0]!.toUpperCase() + id.slice(1),
    explanation: `Does ${id}.`,
    status,
    exchangeIds: [],
    checks: [],
    ...extra,
  }
}

export function flow(id: string, kind: 'ais' | 'pis', steps: StepState[], extra: Partial<FlowState> = {}): FlowState {
  return {
    id,
    kind,
    environmentId: 'local-sandbox',
    clientId: 'c-1',
    steps,
    createdAt: '2026-11-22T10:00:00.000Z',
    ...extra,
  }
}

export function summary(id: string, extra: Partial<ExchangeSummaryDto> = {}): ExchangeSummaryDto {
  return {
    id,
    startedAt: `2026-11-22T10:00:0${id.slice(-1)}.000Z`,
    method: 'GET',
    url: `https://127.0.0.1:8443/open-banking/v4.0/aisp/accounts`,
    path: '/open-banking/v4.0/aisp/accounts',
    status: 200,
    totalMs: 12,
    responseSize: 900,
    ...extra,
  }
}
