// Fakes of the ports a flow step runs with: an HTTP port that records each request and answers as the test
// says, and a scope holding the outputs of earlier steps. The steps themselves are the real ones.
import { isAppError, type AppError } from '../../../src-main/core/app-error.ts'
import type { FlowContext, FlowRequest, FlowResponse } from '../../../src-main/flows/flow-context.ts'
import type { StepScope } from '../../../src-main/flows/step-machine.ts'

/** What the fake bank answers: a status and a JSON body (sent as JSON), or an error the send throws. */
export type FakeAnswer = { status: number; json?: unknown } | Error

export interface FakeFlow<C> {
  ctx: C
  /** Every request sent, in order. */
  sent: FlowRequest[]
  scope: StepScope
  /** The exchange ids the step noted. */
  exchanges: string[]
}

/**
 * A flow context on `https://bank.example` (AIS under `/aisp`, PIS under `/pisp`) whose HTTP port answers
 * each request with `answer(request, n)` (n from 1) as exchange `x{n}`; `more` is merged into the context
 * (`ais`, `pis`...), `outputs` are the earlier steps' outputs the scope serves.
 */
export function fakeFlow<C extends FlowContext>(
  answer: (req: FlowRequest, n: number) => FakeAnswer,
  outputs: Record<string, unknown> = {},
  more: Record<string, unknown> = {},
): FakeFlow<C> {
  const sent: FlowRequest[] = []
  const exchanges: string[] = []
  const ctx = {
    environment: { baseUrl: 'https://bank.example', apiPaths: { ais: '/aisp', pis: '/pisp' } },
    http: {
      send: async (req: FlowRequest): Promise<FlowResponse> => {
        sent.push(req)
        const a = answer(req, sent.length)
        if (a instanceof Error) throw a
        const text = a.json === undefined ? '' : JSON.stringify(a.json)
        const headers: Record<string, string> = a.json === undefined ? {} : { 'content-type': 'application/json' }
        return { status: a.status, headers, text, json: a.json, exchangeId: `x${sent.length}` }
      },
    },
    ...more,
  } as unknown as C
  const scope: StepScope = {
    exchange: (id) => void exchanges.push(id),
    output: <T>(id: string) => {
      if (!(id in outputs)) throw new Error(`step ${id} has not run`)
      return outputs[id] as T
    },
    has: (id) => id in outputs,
    setAwaiting: () => {},
    flowId: 'f-1',
  }
  return { ctx, sent, scope, exchanges }
}

/** The AppError `run` throws (fails the test when it throws nothing, or something else). */
export async function caught(run: () => unknown): Promise<AppError> {
  try {
    await run()
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('expected an AppError')
}

/** The ids of the steps every consent journey starts with, around its own consent step. */
export function journeyStart(consentStep: string): string[] {
  return ['discovery', 'client-credentials', consentStep, 'authorisation-url', 'capture', 'id-token', 'code-exchange']
}
