/**
 * Environments, TPP identities and registered clients. Key material never enters this state: imports
 * take the file contents as arguments, hand them to the main side and keep only the answer (public facts).
 */
import type { CertificateInspectionDto } from '../../src-main/contract/certificates.ts'
import type { CheckResult } from '../../src-main/contract/checks.ts'
import type {
  ClientDto,
  EnvironmentDto,
  EnvironmentInput,
  TppIdentityDto,
  TppRole,
} from '../../src-main/contract/environments.ts'
import { runOp } from './ops.ts'
import type { SetState, SliceDeps } from './types.ts'

export interface PemImport {
  tppId: string
  role: TppRole
  certificatePem?: string
  keyPem?: string
  passphrase?: string
  kid?: string
}

export interface Pkcs12Import {
  tppId: string
  role: 'transport' | 'signing'
  pkcs12Base64: string
  passphrase: string
  kid?: string
}

export interface EnvironmentsSlice {
  environments: EnvironmentDto[]
  tpps: TppIdentityDto[]
  clients: ClientDto[]
  prerequisites: Record<string, CheckResult[]>
  /** The last certificate pasted into the inspector (public material). */
  inspectedCertificates?: CertificateInspectionDto[]
  loadEnvironments(): Promise<void>
  saveEnvironment(input: EnvironmentInput): Promise<EnvironmentDto | undefined>
  removeEnvironment(id: string): Promise<boolean>
  startLocalSandbox(): Promise<EnvironmentDto | undefined>
  loadTpps(): Promise<void>
  saveTpp(input: {
    id?: string
    name: string
    orgId?: string
    redirectUris: string[]
  }): Promise<TppIdentityDto | undefined>
  removeTpp(id: string): Promise<boolean>
  importPem(input: PemImport): Promise<TppIdentityDto | undefined>
  importPkcs12(input: Pkcs12Import): Promise<TppIdentityDto | undefined>
  importSoftwareStatement(tppId: string, ssa: string): Promise<TppIdentityDto | undefined>
  onboardLocal(environmentId: string, name?: string): Promise<TppIdentityDto | undefined>
  checkPrerequisites(tppId: string): Promise<CheckResult[] | undefined>
  inspectCertificate(pem: string): Promise<CertificateInspectionDto[] | undefined>
  loadClients(): Promise<void>
}

function upsert<T extends { id: string }>(list: T[], item: T): T[] {
  const i = list.findIndex((x) => x.id === item.id)
  return i < 0 ? [...list, item] : list.map((x, j) => (j === i ? item : x))
}

/** Stores a TPP identity a call answered (added, or in place of its old version) and hands it on. */
function keepTpp(set: SetState, tpp: TppIdentityDto | undefined): TppIdentityDto | undefined {
  if (tpp) set((s) => ({ tpps: upsert(s.tpps, tpp) }))
  return tpp
}

type EnvironmentActions = Pick<
  EnvironmentsSlice,
  'loadEnvironments' | 'saveEnvironment' | 'removeEnvironment' | 'startLocalSandbox' | 'loadClients'
>

/** The environments' actions: list, save, remove, start the local sandbox; and the clients' list. */
function environmentActions({ set, get, api }: SliceDeps): EnvironmentActions {
  return {
    async loadEnvironments() {
      const list = await runOp(set, 'environments.list', () => api.call('environments.list'))
      if (list) set({ environments: list })
    },
    async saveEnvironment(input) {
      const env = await runOp(set, 'environments.save', () => api.call('environments.save', input))
      if (env) set((s) => ({ environments: upsert(s.environments, env) }))
      return env
    },
    async removeEnvironment(id) {
      await runOp(set, `environments.remove:${id}`, () => api.call('environments.remove', { id }))
      if (get().ops[`environments.remove:${id}`]?.error) return false
      set((s) => ({ environments: s.environments.filter((e) => e.id !== id) }))
      return true
    },
    async startLocalSandbox() {
      const env = await runOp(set, 'environments.startLocalSandbox', () => api.call('environments.startLocalSandbox'))
      if (env) {
        set((s) => ({ environments: upsert(s.environments, env) }))
        void get().refreshInfo()
      }
      return env
    },
    async loadClients() {
      const list = await runOp(set, 'clients.list', () => api.call('clients.list', {}))
      if (list) set({ clients: list })
    },
  }
}

type TppActions = Omit<
  EnvironmentsSlice,
  keyof EnvironmentActions | 'environments' | 'tpps' | 'clients' | 'prerequisites' | 'inspectedCertificates'
>

/** The TPP identities' actions: list, save, remove, import their material, onboard, check, inspect. */
function tppActions({ set, get, api }: SliceDeps): TppActions {
  return {
    async loadTpps() {
      const list = await runOp(set, 'tpps.list', () => api.call('tpps.list'))
      if (list) set({ tpps: list })
    },
    async saveTpp(input) {
      return keepTpp(set, await runOp(set, 'tpps.save', () => api.call('tpps.save', input)))
    },
    async removeTpp(id) {
      await runOp(set, `tpps.remove:${id}`, () => api.call('tpps.remove', { id }))
      if (get().ops[`tpps.remove:${id}`]?.error) return false
      set((s) => ({ tpps: s.tpps.filter((t) => t.id !== id) }))
      return true
    },
    async importPem(input) {
      return keepTpp(set, await runOp(set, `tpps.import:${input.tppId}`, () => api.call('tpps.importPem', input)))
    },
    async importPkcs12(input) {
      return keepTpp(set, await runOp(set, `tpps.import:${input.tppId}`, () => api.call('tpps.importPkcs12', input)))
    },
    async importSoftwareStatement(tppId, ssa) {
      return keepTpp(
        set,
        await runOp(set, `tpps.importSoftwareStatement:${tppId}`, () =>
          api.call('tpps.importSoftwareStatement', { tppId, ssa }),
        ),
      )
    },
    async onboardLocal(environmentId, name) {
      const tpp = keepTpp(
        set,
        await runOp(set, 'tpps.onboardLocal', () =>
          api.call('tpps.onboardLocal', name ? { environmentId, name } : { environmentId }),
        ),
      )
      if (tpp) void get().loadEnvironments()
      return tpp
    },
    async checkPrerequisites(tppId) {
      const checks = await runOp(set, `tpps.checkPrerequisites:${tppId}`, () =>
        api.call('tpps.checkPrerequisites', { tppId }),
      )
      if (checks) set((s) => ({ prerequisites: { ...s.prerequisites, [tppId]: checks } }))
      return checks
    },
    async inspectCertificate(pem) {
      const certs = await runOp(set, 'certificates.inspect', () => api.call('certificates.inspect', { pem }))
      set({ inspectedCertificates: certs })
      return certs
    },
  }
}

export function environmentsSlice(deps: SliceDeps): EnvironmentsSlice {
  return {
    environments: [],
    tpps: [],
    clients: [],
    prerequisites: {},
    ...environmentActions(deps),
    ...tppActions(deps),
  }
}
