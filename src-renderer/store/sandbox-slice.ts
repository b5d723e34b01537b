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
  /** Reads the clock (one read at a time: the views asking at once share it). */
  loadSandboxClock(): Promise<void>
  /** Reads the clock again when the environment is the local sandbox (after a flow step: it may have moved). */
  followSandboxClock(environmentId: string | undefined): Promise<void>
  /** Moves the clock, then reads the flow's budget again so the table shows the effect. */
  moveSandboxClock(move: SandboxClockMove, flowId?: string): Promise<void>
}

export function sandboxSlice({ set, get, api }: SliceDeps): SandboxSlice {
  let reading: Promise<void> | undefined
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
    loadSandboxClock() {
      reading ??= runOp(set, 'sandbox.clock', () => api.call('sandbox.clock')).then((clock) => {
        reading = undefined
        if (clock) set({ sandboxClock: clock })
      })
      return reading
    },
    async followSandboxClock(environmentId) {
      if (get().environments.find((e) => e.id === environmentId)?.kind === 'local-sandbox')
        await get().loadSandboxClock()
    },
    async moveSandboxClock(move, flowId) {
      const clock = await runOp(set, 'sandbox.moveClock', () => api.call('sandbox.moveClock', move))
      if (!clock) return
      set({ sandboxClock: clock })
      if (flowId && get().flows[flowId]?.kind === 'ais') await get().loadBudget(flowId)
    },
  }
}
