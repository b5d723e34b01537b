/**
 * The local sandbox's public face: the one module of `src-main/local-sandbox/` that code outside it may import
 * (`eslint/layers-rule.js` enforces it; docs/architecture.md, "Layers and why").
 *
 * It stays light, because the command line loads it for every command that may start a sandbox and for its
 * help: what it re-exports reaches no server package. Starting a sandbox (koa, oidc-provider, the AIS and PIS
 * banks) and opening its directory without one are loaded on the first call, by a dynamic `import()`.
 */
import type { OfflineDirectory } from './directory/offline-directory.ts'
import type { RunningSandbox, SandboxOptions } from './sandbox-api.ts'

export type { SandboxAddresses, SandboxContext } from './context.ts'
export type { RunningSandbox, SandboxConformance, SandboxFaults, SandboxOptions } from './sandbox-api.ts'
export type { SandboxStore } from './store/sandbox-store.ts'
export type { OfflineDirectory } from './directory/offline-directory.ts'
export type { StarterKit } from './directory/types.ts'
export { storedClockOffsetMs } from './store/stored-clock.ts'
export type {
  ConformanceClientSummary,
  ConformanceFailure,
  ConformanceLimits,
  ConformanceReport,
  ConformanceRuleResult,
} from './conformance/report-types.ts'
export type { Fault, FaultRule, FaultRuleInput, SandboxOrigin } from './faults/fault-rules.ts'
export type { FaultRuleState } from './faults/fault-set.ts'

export { DEFAULT_SANDBOX_PORT, DIRECTORY_ISSUER } from './defaults.ts'
export { dataDirLayout, defaultDataDir, resetDataDir, type DataDirLayout } from './data-dir.ts'
export { addressesForPort, runningSandbox } from './running-file.ts'
export { isLoopback, publicHostProblem } from './http/public-addresses.ts'
export { adminTokenProblem } from './http/admin-guard.ts'
export { TRANSPORT_CERTIFICATES, type TransportCertificates } from './http/peer-certificate.ts'
export { OnboardInputError, validateOnboardInput } from './directory/onboard-input.ts'
export { existingKitFiles, writeStarterKit } from './directory/starter-kit-files.ts'
export { checkFaultRuleInputs } from './faults/fault-set.ts'
export { FaultRuleError } from './faults/fault-rules.ts'
export { migrateSandboxStore, parseStoreSpec, redactStoreUrl, type StoreSpec } from './store/open-store.ts'
export { defaultPkiTemplateDir } from './pki/template-dir.ts'
export { CONFORMANCE_RULES, type ConformanceRuleId } from './conformance/rules.ts'

/**
 * Starts the local sandbox of the bank on 127.0.0.1 and returns its addresses and a stop function.
 *
 * @example
 *   const sandbox = await startLocalSandbox({ dataDir: tmp })
 *   // ... sandbox.baseUrl, sandbox.authUrl, sandbox.caBundlePath
 *   await sandbox.stop()
 */
export async function startLocalSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { startLocalSandbox: start } = await import('./start-sandbox.ts')
  return start(options)
}

/**
 * Opens the directory of a data directory without starting any server (`ob-console sandbox --issue-tpp`); see
 * `directory/offline-directory.ts`.
 */
export async function openDirectoryOffline(dataDir: string, log?: (line: string) => void): Promise<OfflineDirectory> {
  const { openDirectoryOffline: open } = await import('./directory/offline-directory.ts')
  return open(dataDir, log)
}
