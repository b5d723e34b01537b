/** The local sandbox's fault rules: listed with their counts, added, removed, cleared (local sandbox only). */
import type { SandboxFaultAdd, SandboxFaultRuleDto, SandboxFaultsDto } from '../../src-main/contract/sandbox-admin.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export interface SandboxFaultsSlice {
  /** The rules in force, in the order the sandbox tries them (undefined until read). */
  sandboxFaults?: SandboxFaultRuleDto[]
  loadSandboxFaults(): Promise<void>
  /** True when the sandbox took the rule; a refused one leaves its error in `ops['sandbox.addFault']`. */
  addSandboxFault(input: SandboxFaultAdd): Promise<boolean>
  removeSandboxFault(id: string): Promise<void>
  clearSandboxFaults(): Promise<void>
}

export function sandboxFaultsSlice({ set, get, api }: SliceDeps): SandboxFaultsSlice {
  const keep = (answer: SandboxFaultsDto | undefined) => {
    if (answer) set({ sandboxFaults: answer.rules })
    return answer
  }
  return {
    async loadSandboxFaults() {
      keep(await runOp(set, 'sandbox.faults', () => api.call('sandbox.faults')))
    },
    async addSandboxFault(input) {
      return !!keep(await runOp(set, 'sandbox.addFault', () => api.call('sandbox.addFault', input)))
    },
    async removeSandboxFault(id) {
      // A rule already gone (cleared elsewhere, the sandbox restarted): the list is read again all the same.
      if (!keep(await runOp(set, 'sandbox.removeFault', () => api.call('sandbox.removeFault', { id }))))
        await get().loadSandboxFaults()
    },
    async clearSandboxFaults() {
      if (!keep(await runOp(set, 'sandbox.clearFaults', () => api.call('sandbox.clearFaults'))))
        await get().loadSandboxFaults()
    },
  }
}
