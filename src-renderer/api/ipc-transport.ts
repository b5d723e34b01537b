/** The desktop app's transport: the preload's `window.obConsole`, one function per call. */
import type { ContractEvent } from '../../src-main/contract/transport.ts'
import type { ObConsoleBridge } from './bridge.ts'
import { toOutcome, uiError, type Outcome, type Transport } from './transport.ts'

/** Wraps the preload's bridge; a call the bridge lacks or that throws becomes an error result. */
export function ipcTransport(bridge: ObConsoleBridge): Transport {
  const fns = bridge as unknown as Record<string, ((input: unknown) => Promise<unknown>) | undefined>
  return {
    kind: 'electron',
    async call(name: string, input: unknown): Promise<Outcome<unknown>> {
      const fn = fns[name]
      if (typeof fn !== 'function') {
        return {
          ok: false,
          error: uiError(
            'IPC_UNKNOWN_CALL',
            `The desktop app has no call ${name}.`,
            'The preload and the renderer are from different builds.',
            'Rebuild the app (npm run build) and restart it.',
          ),
        }
      }
      try {
        return toOutcome(name, await fn(input))
      } catch (err) {
        return {
          ok: false,
          error: uiError(
            'IPC_FAILED',
            `The call ${name} did not reach the main process.`,
            (err as Error)?.message ?? String(err),
            'Restart the console; if it persists, report it with the call name.',
          ),
        }
      }
    },
    subscribe(listener: (event: ContractEvent) => void): () => void {
      return bridge.onEvent(listener)
    },
  }
}
