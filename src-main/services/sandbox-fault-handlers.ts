import type { ContractHandlers } from '../contract/api.ts'
import { attempt } from '../core/result.ts'
import type { ConsoleServices } from './console-services.ts'
import { SandboxFaultsService } from './sandbox-faults.ts'

export type FaultCalls = 'sandbox.faults' | 'sandbox.addFault' | 'sandbox.removeFault' | 'sandbox.clearFaults'

/**
 * The calls of the local sandbox's fault mode (its directory's `/admin/faults`). Their input's shape is checked
 * at the seam (`call-input.ts`); the rule itself is the sandbox's to check.
 */
export function sandboxFaultHandlers(s: ConsoleServices): Pick<ContractHandlers, FaultCalls> {
  const faults = new SandboxFaultsService(s.environments, s.http)
  return {
    'sandbox.faults': () => attempt(() => faults.list(), 'Reading the fault rules failed'),
    'sandbox.addFault': (input) => attempt(() => faults.add(input), 'Adding the fault rule failed'),
    'sandbox.removeFault': (input) => attempt(() => faults.remove(input.id), 'Removing the fault rule failed'),
    'sandbox.clearFaults': () => attempt(() => faults.clear(), 'Clearing the fault rules failed'),
  }
}
