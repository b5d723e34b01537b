import type { ContractHandlers } from '../contract/api.ts'
import type { SandboxFaultAdd } from '../contract/sandbox-admin.ts'
import { AppError } from '../core/app-error.ts'
import { attempt } from '../core/result.ts'
import type { ConsoleServices } from './console-services.ts'
import { SandboxFaultsService } from './sandbox-faults.ts'

type FaultCalls = 'sandbox.faults' | 'sandbox.addFault' | 'sandbox.removeFault' | 'sandbox.clearFaults'

/** `{ rule: {...} }` or `{ json: "..." }`, exactly one of them. */
function addInput(input: unknown): SandboxFaultAdd {
  const i = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {}
  const rule = i.rule
  if (rule && typeof rule === 'object' && !Array.isArray(rule) && i.json === undefined)
    return { rule: rule as Record<string, unknown> }
  if (typeof i.json === 'string' && rule === undefined) return { json: i.json }
  throw new AppError('INVALID_INPUT', {
    what: 'sandbox.addFault got no rule.',
    cause: 'It takes {"rule": {...}} (a rule as an object) or {"json": "..."} (the rule as JSON text), one of the two.',
    fix: 'Send the rule the form built, or the text of the JSON box.',
  })
}

function removeInput(input: unknown): string {
  const id = input && typeof input === 'object' ? (input as { id?: unknown }).id : undefined
  if (typeof id === 'string' && id) return id
  throw new AppError('INVALID_INPUT', {
    what: 'sandbox.removeFault got no rule id.',
    cause: 'It takes {"id": "..."}, the id of one rule of the list.',
    fix: 'Pick the rule to remove from the list of rules.',
  })
}

/** The calls of the local sandbox's fault mode (its directory's `/admin/faults`). */
export function sandboxFaultHandlers(s: ConsoleServices): Pick<ContractHandlers, FaultCalls> {
  const faults = new SandboxFaultsService(s.environments, s.http)
  return {
    'sandbox.faults': () => attempt(() => faults.list(), 'Reading the fault rules failed'),
    'sandbox.addFault': (input) => attempt(() => faults.add(addInput(input)), 'Adding the fault rule failed'),
    'sandbox.removeFault': (input) =>
      attempt(() => faults.remove(removeInput(input)), 'Removing the fault rule failed'),
    'sandbox.clearFaults': () => attempt(() => faults.clear(), 'Clearing the fault rules failed'),
  }
}
