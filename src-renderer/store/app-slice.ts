/** The shell's state: what the main side is, which view shows, notices of failures no form owns. */
import type { AppInfoDto } from '../../src-main/contract/api.ts'
import type { UiError } from '../api/transport.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export const VIEWS = [
  'guide',
  'environments',
  'keys',
  'prerequisites',
  'discovery',
  'registration',
  'flows',
  'consents',
  'data',
  'inspector',
  'jwt',
] as const
export type ViewId = (typeof VIEWS)[number]

/** What each view is called: in the navigation, the page title, the command palette. */
export const VIEW_LABELS: Record<ViewId, string> = {
  guide: 'Guide',
  environments: 'Environments & identities',
  keys: 'Keys & certificates',
  prerequisites: 'Prerequisites',
  discovery: 'Discovery',
  registration: 'Registration',
  flows: 'Consent flows',
  consents: 'Consents',
  data: 'Account data',
  inspector: 'Inspector',
  jwt: 'JWT debugger',
}

export interface Notice {
  id: number
  title: string
  error: UiError
}

export interface AppSlice {
  host: 'electron' | 'web'
  info?: AppInfoDto
  booted: boolean
  view: ViewId
  /** Counts the navigations, the current view's own included: each one opens the view at its top. */
  viewVisit: number
  notices: Notice[]
  /**
   * The result the user's own action just produced (a step card `step:<flowId>:<stepId>`, the
   * `registration-result`): the part showing it scrolls into view and takes the focus, once. Background
   * updates (the event stream) never set it; changing views drops it.
   */
  followTarget?: { key: string; seq: number }
  followResult(key: string): void
  /** Drops the target once its part has followed it (only that one: a newer target stays). */
  followedResult(seq: number): void
  navigate(view: ViewId): void
  /**
   * Loads what every view needs and picks the first screen (the guide until a client is registered), unless the
   * user went to a view while it loaded.
   */
  boot(): Promise<void>
  /** Shows a failure that no form owns (an event, a background refresh). */
  notify(title: string, error: UiError): void
  dismissNotice(id: number): void
  refreshInfo(): Promise<void>
}

let nextNotice = 1
let nextFollow = 1

export function appSlice({ set, get, api }: SliceDeps): AppSlice {
  return {
    host: api.host,
    booted: false,
    view: 'guide',
    viewVisit: 0,
    notices: [],
    navigate(view) {
      set((s) => ({ view, viewVisit: s.viewVisit + 1, followTarget: undefined }))
    },
    followResult(key) {
      set({ followTarget: { key, seq: nextFollow++ } })
    },
    followedResult(seq) {
      if (get().followTarget?.seq === seq) set({ followTarget: undefined })
    },
    async boot() {
      const info = await runOp(set, 'app.info', () => api.call('app.info'))
      if (!info) return
      await Promise.all([get().loadEnvironments(), get().loadTpps(), get().loadClients(), get().loadFlows()])
      const hasClient = get().clients.length > 0
      get().guideResume()
      // The first screen, unless the user already went somewhere while the console was connecting.
      const moved = get().viewVisit > 0 || get().view !== 'guide'
      set({ info, booted: true, ...(moved ? {} : { view: hasClient ? 'flows' : 'guide' }) })
    },
    notify(title, error) {
      set((s) => ({ notices: [...s.notices.slice(-4), { id: nextNotice++, title, error }] }))
    },
    dismissNotice(id) {
      set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }))
    },
    async refreshInfo() {
      const info = await runOp(set, 'app.info', () => api.call('app.info'))
      if (info) set({ info })
    },
  }
}
