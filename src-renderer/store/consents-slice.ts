/**
 * The consents the console created (per client), read and revoked at the bank, with each consent's
 * PSU-absent allowance; and the allowance a flow step would spend, asked before it runs.
 */
import type { PsuAbsentBudgetDto } from '../../src-main/contract/ais-data.ts'
import type { ConsentReadDto, ConsentRecordDto } from '../../src-main/contract/consents.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export interface ConsentsSlice {
  /** Newest first, every client's. */
  consents: ConsentRecordDto[]
  /** The bank's last answer to a GET, per consent id. */
  consentReads: Record<string, ConsentReadDto>
  consentBudgets: Record<string, PsuAbsentBudgetDto[]>
  /** What a step would spend before it runs, by `flowId:stepId`. */
  budgetsBefore: Record<string, PsuAbsentBudgetDto[]>
  loadConsents(): Promise<void>
  /** GET at the bank (ops key `consents.get:<id>`); the list takes its status and expiry. */
  readConsent(consentId: string): Promise<void>
  /** DELETE at the bank (ops key `consents.delete:<id>`). */
  revokeConsent(consentId: string): Promise<boolean>
  loadConsentBudget(consentId: string): Promise<void>
  loadBudgetBefore(flowId: string, stepId: string): Promise<void>
}

export function consentsSlice({ set, api }: SliceDeps): ConsentsSlice {
  const put = (c: ConsentRecordDto) =>
    set((s) => ({
      consents: s.consents.some((x) => x.consentId === c.consentId)
        ? s.consents.map((x) => (x.consentId === c.consentId ? c : x))
        : [c, ...s.consents],
    }))
  return {
    consents: [],
    consentReads: {},
    consentBudgets: {},
    budgetsBefore: {},
    async loadConsents() {
      const list = await runOp(set, 'consents.list', () => api.call('consents.list', {}))
      if (list) set({ consents: list })
    },
    async readConsent(consentId) {
      const read = await runOp(set, `consents.get:${consentId}`, () => api.call('consents.get', { consentId }))
      if (!read) return
      put(read.consent)
      set((s) => ({ consentReads: { ...s.consentReads, [consentId]: read } }))
    },
    async revokeConsent(consentId) {
      const done = await runOp(set, `consents.delete:${consentId}`, () => api.call('consents.delete', { consentId }))
      if (!done) return false
      put(done.consent)
      set((s) => {
        const { [consentId]: _old, ...reads } = s.consentReads
        return { consentReads: reads }
      })
      return true
    },
    async loadConsentBudget(consentId) {
      const rows = await runOp(set, `consents.budget:${consentId}`, () => api.call('consents.budget', { consentId }))
      if (rows) set((s) => ({ consentBudgets: { ...s.consentBudgets, [consentId]: rows } }))
    },
    async loadBudgetBefore(flowId, stepId) {
      const key = `${flowId}:${stepId}`
      const rows = await runOp(set, `ais.budgetBefore:${key}`, () => api.call('ais.budgetBefore', { flowId, stepId }))
      if (rows) set((s) => ({ budgetsBefore: { ...s.budgetsBefore, [key]: rows } }))
    },
  }
}
