/** A stand-in HTTP engine for the services that talk to the local sandbox's directory: what they send, and with which meta. */
import type { EnvironmentDto } from '../../../../src-main/contract/environments.ts'
import type { FlowRequest, FlowResponse } from '../../../../src-main/flows/flow-context.ts'
import type { EnvironmentsService } from '../../../../src-main/services/environments-service.ts'
import type { HttpEngine } from '../../../../src-main/services/ports.ts'

/** An engine that answers `answer` and notes the meta and request of every send. */
export function recordingEngine(answer: Omit<FlowResponse, 'exchangeId' | 'headers'>) {
  const sent: Array<{ meta: Parameters<HttpEngine['forIdentity']>[2]; request: FlowRequest }> = []
  const engine = {
    forIdentity: (_env: EnvironmentDto, _t: unknown, meta: Parameters<HttpEngine['forIdentity']>[2]) => ({
      send: async (request: FlowRequest): Promise<FlowResponse> => {
        sent.push({ meta, request })
        return { exchangeId: `x${sent.length}`, headers: {}, ...answer }
      },
      responseBody: () => undefined,
      keepsWhole: () => true,
      preconnect: () => undefined,
    }),
  } as unknown as HttpEngine
  return { engine, sent }
}

export function localEnvironments(): EnvironmentsService {
  return {
    localDirectory: () => ({ directoryUrl: 'https://127.0.0.1:4000' }),
    list: () => [{ id: 'local', kind: 'local-sandbox' }],
  } as unknown as EnvironmentsService
}
