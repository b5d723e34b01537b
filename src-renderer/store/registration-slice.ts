/**
 * The registration builder: the form (every claim of the bank spec's table 2.1), a preview checked by
 * the engine as you type (debounced; late answers to older forms are dropped), and the send.
 */
import type { RegistrationForm, RegistrationOutcomeDto, RegistrationPreviewDto } from '../../src-main/contract/api.ts'
import type { ClientDto } from '../../src-main/contract/environments.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export const PREVIEW_DEBOUNCE_MS = 300

export interface RegistrationState {
  environmentId?: string
  tppId?: string
  form?: RegistrationForm
  preview?: RegistrationPreviewDto
  /** A preview is pending (typed, debounce running, or call in flight). */
  previewPending: boolean
  result?: RegistrationOutcomeDto
}

export interface RegistrationSlice {
  registration: RegistrationState
  /** Picks the environment and identity, and loads the engine's defaults for them. */
  registrationTarget(environmentId: string, tppId: string): Promise<void>
  updateRegistrationForm(patch: Partial<RegistrationForm>): void
  previewRegistration(): Promise<void>
  /**
   * Sends the registration; `sendAnyway` sends one that fails the claim checks or the pre-flight against
   * discovery, to see the bank's answer. A client registered becomes the environment's current one.
   */
  register(options?: { sendAnyway?: boolean }): Promise<{ client: ClientDto; exchangeId: string } | undefined>
  /** GET the client's registration at the bank (registration.read). */
  readClient(clientId: string): Promise<void>
  /** PUT the current form as the client's new registration (registration.update). */
  updateClient(clientId: string): Promise<void>
  /** DELETE the client at the bank and forget it (registration.delete). */
  deleteClient(clientId: string): Promise<boolean>
}

export function registrationSlice({ set, get, api, timers }: SliceDeps): RegistrationSlice {
  const t = timers ?? {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: unknown) => clearTimeout(id as number),
  }
  let timer: unknown
  let seq = 0
  const patch = (p: Partial<RegistrationState>) => set((s) => ({ registration: { ...s.registration, ...p } }))

  return {
    registration: { previewPending: false },
    async registrationTarget(environmentId, tppId) {
      patch({ environmentId, tppId, form: undefined, preview: undefined, result: undefined })
      const form = await runOp(set, 'registration.defaults', () =>
        api.call('registration.defaults', { environmentId, tppId }),
      )
      const r = get().registration
      if (!form || r.environmentId !== environmentId || r.tppId !== tppId) return
      patch({ form })
      await get().previewRegistration()
    },
    updateRegistrationForm(p) {
      const form = get().registration.form
      if (!form) return
      patch({ form: { ...form, ...p }, previewPending: true })
      if (timer !== undefined) t.clearTimeout(timer)
      timer = t.setTimeout(() => {
        timer = undefined
        void get().previewRegistration()
      }, PREVIEW_DEBOUNCE_MS)
    },
    async previewRegistration() {
      const { environmentId, tppId, form } = get().registration
      if (!environmentId || !tppId || !form) return
      const mine = ++seq
      patch({ previewPending: true })
      const preview = await runOp(set, 'registration.preview', () =>
        api.call('registration.preview', { environmentId, tppId, form }),
      )
      if (mine !== seq) return
      patch(preview ? { preview, previewPending: timer !== undefined } : { previewPending: timer !== undefined })
    },
    async register(options) {
      const { environmentId, tppId, form } = get().registration
      if (!environmentId || !tppId || !form) return undefined
      const sendAnyway = options?.sendAnyway === true
      const input = { environmentId, tppId, form, ...(sendAnyway ? { sendAnyway } : {}) }
      const result = await runOp(set, 'registration.register', () => api.call('registration.register', input))
      if (result) {
        patch({ result })
        get().followResult('registration-result')
        set((s) => ({ clients: [...s.clients.filter((c) => c.clientId !== result.client.clientId), result.client] }))
        await get().setCurrentClient(environmentId, result.client.clientId)
      }
      return result
    },
    async readClient(clientId) {
      const result = await runOp(set, `registration.manage:${clientId}`, () =>
        api.call('registration.read', { clientId }),
      )
      if (result) {
        patch({ result: { ...result, changedByBank: [] } }) // a read sent no claims
        set((s) => ({ clients: s.clients.map((c) => (c.clientId === clientId ? result.client : c)) }))
      }
    },
    async updateClient(clientId) {
      const form = get().registration.form
      if (!form) return
      const result = await runOp(set, `registration.manage:${clientId}`, () =>
        api.call('registration.update', { clientId, form }),
      )
      if (result) {
        patch({ result })
        set((s) => ({ clients: s.clients.map((c) => (c.clientId === clientId ? result.client : c)) }))
      }
    },
    async deleteClient(clientId) {
      const done = await runOp(set, `registration.manage:${clientId}`, () =>
        api.call('registration.delete', { clientId }),
      )
      if (!done) return false
      set((s) => ({
        clients: s.clients.filter((c) => c.clientId !== clientId),
        registration: {
          ...s.registration,
          ...(s.registration.result?.client.clientId === clientId ? { result: undefined } : {}),
        },
      }))
      return true
    },
  }
}
