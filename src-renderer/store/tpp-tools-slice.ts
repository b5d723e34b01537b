/**
 * The TPP's own tools: the prerequisites checklist against the directory, key and CSR generation (only
 * public parts come back: CSRs, certificate, JWKS, kid), the issued certificate's attachment, and the
 * import of a Postman environment. Private keys never enter this state.
 */
import type { CertificateInspectionDto } from '../../src-main/contract/certificates.ts'
import type { CheckResult } from '../../src-main/contract/checks.ts'
import type { TppIdentityDto } from '../../src-main/contract/environments.ts'
import type {
  GenerateKeysInput,
  GeneratedKeysDto,
  PostmanImportDto,
  PostmanImportInput,
  PrerequisitesInput,
} from '../../src-main/contract/tpp-tools.ts'
import type { Outcome } from '../api/transport.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

/** The key of one identity's checklist for one environment. */
export const prerequisitesKey = (tppId: string, environmentId: string) => `${tppId}@${environmentId}`

export interface TppToolsSlice {
  /** The last full checklist per identity and environment (`prerequisitesKey`). */
  checklists: Record<string, CheckResult[]>
  /** The public parts of the last generation, and its self-signed certificate as the console reads it. */
  generated?: { keys: GeneratedKeysDto; certificate?: CertificateInspectionDto }
  lastPostmanImport?: PostmanImportDto
  /** What the prerequisites view opens on (set by the TPP panel's link). */
  prerequisitesTarget?: { tppId: string; environmentId?: string }
  /** Opens the prerequisites view on an identity (and environment), and checks them at once. */
  openPrerequisites(tppId: string, environmentId?: string): void
  checkAll(input: PrerequisitesInput): Promise<CheckResult[] | undefined>
  generateKeys(input: GenerateKeysInput): Promise<GeneratedKeysDto | undefined>
  attachCertificate(input: {
    tppId: string
    role: 'transport' | 'signing'
    certificatePem: string
    kid?: string
  }): Promise<TppIdentityDto | undefined>
  importPostman(input: PostmanImportInput): Promise<PostmanImportDto | undefined>
  /** The sandbox's o3 Postman environment of a client (secrets masked), for the import form. */
  fetchPostmanEnvironment(clientId: string): Promise<Outcome<Record<string, unknown>>>
}

export function tppToolsSlice({ set, get, api }: SliceDeps): TppToolsSlice {
  return {
    checklists: {},
    openPrerequisites(tppId, environmentId) {
      const env = environmentId ?? get().environments.find((e) => e.tppId === tppId)?.id ?? get().environments[0]?.id
      set({ prerequisitesTarget: { tppId, ...(env ? { environmentId: env } : {}) } })
      get().navigate('prerequisites')
      if (env) void get().checkAll({ tppId, environmentId: env })
    },
    async checkAll(input) {
      const key = prerequisitesKey(input.tppId, input.environmentId)
      const checks = await runOp(set, `prerequisites.check:${key}`, () => api.call('prerequisites.check', input))
      if (checks) set((s) => ({ checklists: { ...s.checklists, [key]: checks } }))
      return checks
    },
    async generateKeys(input) {
      set({ generated: undefined })
      const keys = await runOp(set, 'certificates.generate', () => api.call('certificates.generate', input))
      if (!keys) return undefined
      let certificate: CertificateInspectionDto | undefined
      if (keys.transport?.certificatePem) {
        const inspected = await api.call('certificates.inspect', { pem: keys.transport.certificatePem })
        certificate = inspected.ok ? inspected.value[0] : undefined
      }
      set({ generated: { keys, ...(certificate ? { certificate } : {}) } })
      // A new identity, or new keys in an existing one: its public facts changed.
      await get().loadTpps()
      return keys
    },
    async attachCertificate(input) {
      const tpp = await runOp(set, 'certificates.attach', () => api.call('certificates.attach', input))
      if (tpp) set((s) => ({ tpps: s.tpps.map((t) => (t.id === tpp.id ? tpp : t)) }))
      return tpp
    },
    async importPostman(input) {
      const imported = await runOp(set, 'environments.importPostman', () =>
        api.call('environments.importPostman', input),
      )
      if (!imported) return undefined
      set({ lastPostmanImport: imported })
      await Promise.all([get().loadEnvironments(), get().loadClients()])
      if (imported.clientId)
        set((s) => ({ currentClients: { ...s.currentClients, [imported.environment.id]: imported.clientId } }))
      return imported
    },
    async fetchPostmanEnvironment(clientId) {
      const r = await api.call('o3.postmanEnvironment', { clientId })
      return r.ok ? { ok: true, value: r.value.environment } : r
    },
  }
}
