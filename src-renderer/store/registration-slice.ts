/**
 * The registration builder: the form (every claim of the bank spec's table 2.1), a preview checked by
 * the engine as you type (debounced; late answers to older forms are dropped), and the send.
 */
import type { RegistrationForm, RegistrationOutcomeDto, RegistrationPreviewDto } from '../../src-main/contract/api.ts'
import type { ClientDto } from '../../src-main/contract/environments.ts'
import { runOp } from './ops.ts'
import type { SetState, SliceDeps } from './types.ts'

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

function patchRegistration(set: SetState, p: Partial<RegistrationState>): void {
  set((s) => ({ registration: { ...s.registration, ...p } }))
}

/** The preview's debounce timer and the number of the latest preview asked (older answers are dropped). */
interface PreviewState {
  timers: NonNullable<SliceDeps['timers']>
  timer: unknown
  seq: number
}

type FormActions = Pick<RegistrationSlice, 'registrationTarget' | 'updateRegistrationForm' | 'previewRegistration'>

/** The form's actions: the target and its defaults, the edits, the preview checked by the engine. */
function formActions({ set, get, api }: SliceDeps, p: PreviewState): FormActions {
  return {
    async registrationTarget(environmentId, tppId) {
      patchRegistration(set, { environmentId, tppId, form: undefined, preview: undefined, result: undefined })
      const form = await runOp(set, 'registration.defaults', () =>
        api.call('registration.defaults', { environmentId, tppId }),
      )
      const r = get().registration
      if (!form || r.environmentId !== environmentId || r.tppId !== tppId) return
      patchRegistration(set, { form })
      await get().previewRegistration()
    },
    updateRegistrationForm(change) {
      const form = get().registration.form
      if (!form) return
      patchRegistration(set, { form: { ...form, ...change }, previewPending: true })
      if (p.timer !== undefined) p.timers.clearTimeout(p.timer)
      p.timer = p.timers.setTimeout(() => {
        p.timer = undefined
        void get().previewRegistration()
      }, PREVIEW_DEBOUNCE_MS)
    },
    async previewRegistration() {
      const { environmentId, tppId, form } = get().registration
      if (!environmentId || !tppId || !form) return
      const mine = ++p.seq
      patchRegistration(set, { previewPending: true })
      const preview = await runOp(set, 'registration.preview', () =>
        api.call('registration.preview', { environmentId, tppId, form }),
      )
      if (mine !== p.seq) return
      const previewPending = p.timer !== undefined
      patchRegistration(set, preview ? { preview, previewPending } : { previewPending })
    },
  }
}

/** Puts the client the bank answered in place of client `clientId` in the clients' list. */
function replaceClient(set: SetState, clientId: string, client: ClientDto): void {
  set((s) => ({ clients: s.clients.map((c) => (c.clientId === clientId ? client : c)) }))
}

type ClientActions = Pick<RegistrationSlice, 'register' | 'readClient' | 'updateClient' | 'deleteClient'>

/** The client's actions at the bank: register, read, update and delete. */
function clientActions({ set, get, api }: SliceDeps): ClientActions {
  return {
    async register(options) {
      const { environmentId, tppId, form } = get().registration
      if (!environmentId || !tppId || !form) return undefined
      const sendAnyway = options?.sendAnyway === true
      const input = { environmentId, tppId, form, ...(sendAnyway ? { sendAnyway } : {}) }
      const result = await runOp(set, 'registration.register', () => api.call('registration.register', input))
      if (result) {
        patchRegistration(set, { result })
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
        patchRegistration(set, { result: { ...result, changedByBank: [] } }) // a read sent no claims
        replaceClient(set, clientId, result.client)
      }
    },
    async updateClient(clientId) {
      const form = get().registration.form
      if (!form) return
      const result = await runOp(set, `registration.manage:${clientId}`, () =>
        api.call('registration.update', { clientId, form }),
      )
      if (result) {
        patchRegistration(set, { result })
        replaceClient(set, clientId, result.client)
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

export function registrationSlice(deps: SliceDeps): RegistrationSlice {
  const timers = deps.timers ?? {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: unknown) => clearTimeout(id as number),
  }
  return {
    registration: { previewPending: false },
    ...formActions(deps, { timers, timer: undefined, seq: 0 }),
    ...clientActions(deps),
  }
}
