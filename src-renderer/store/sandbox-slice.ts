/** The local sandbox's clock: read, and moved forward by the user (local sandbox only). */
import type { SandboxClockDto, SandboxClockMove, SandboxReportDto } from '../../src-main/contract/api.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export interface SandboxSlice {
  sandboxClock?: SandboxClockDto
  /** The local sandbox's test PSUs' logins (local environment only). */
  testPsus?: Array<{ username: string; password: string; name: string }>
  loadTestPsus(environmentId: string): Promise<void>
  /** The local sandbox's conformance report per client id (its op key: `sandbox.report:<clientId>`). */
  sandboxReports: Record<string, SandboxReportDto>
  loadSandboxReport(clientId: string): Promise<void>
  loadSandboxClock(): Promise<void>
  /** Moves the clock, then reads the flow's budget again so the table shows the effect. */
  moveSandboxClock(move: SandboxClockMove, flowId?: string): Promise<void>
}

export function sandboxSlice({ set, get, api }: SliceDeps): SandboxSlice {
  return {
    sandboxReports: {},
    async loadSandboxReport(clientId) {
      const report = await runOp(set, `sandbox.report:${clientId}`, () => api.call('sandbox.report', { clientId }))
      if (report) set((s) => ({ sandboxReports: { ...s.sandboxReports, [clientId]: report } }))
    },
    async loadTestPsus(environmentId) {
      const list = await runOp(set, 'sandbox.testPsus', () => api.call('sandbox.testPsus', { environmentId }))
      if (list) set({ testPsus: list })
    },
    async loadSandboxClock() {
      const clock = await runOp(set, 'sandbox.clock', () => api.call('sandbox.clock'))
      if (clock) set({ sandboxClock: clock })
    },
    async moveSandboxClock(move, flowId) {
      const clock = await runOp(set, 'sandbox.moveClock', () => api.call('sandbox.moveClock', move))
      if (!clock) return
      set({ sandboxClock: clock })
      if (flowId && get().flows[flowId]?.kind === 'ais') await get().loadBudget(flowId)
    },
  }
}
