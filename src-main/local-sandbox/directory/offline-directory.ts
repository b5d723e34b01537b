import { SandboxClock } from '../clock.ts'
import type { SandboxAddresses } from '../context.ts'
import { dataDirLayout, type DataDirLayout } from '../data-dir.ts'
import { loadOrCreatePki } from '../pki/ecosystem-pki.ts'
import type { EcosystemPki } from '../pki/types.ts'
import { addressesForPort, runningSandbox } from '../running-file.ts'
import { DEFAULT_SANDBOX_PORT } from '../defaults.ts'
import { createDirectory, type LocalDirectory } from './directory.ts'

export { DEFAULT_SANDBOX_PORT, addressesForPort, runningSandbox }

export interface OfflineDirectory {
  directory: LocalDirectory
  pki: EcosystemPki
  layout: DataDirLayout
  addresses: SandboxAddresses
  /** Pid of the sandbox running on the data directory, whose addresses were taken; undefined: the defaults were used. */
  runningPid?: number
}

/**
 * Opens the directory of a data directory without starting any server, for `ob-console sandbox
 * --issue-tpp`: the PKI and the directory key are loaded (or created), and the addresses are those of
 * the sandbox running on the same data directory, else the defaults (ports 8443 to 8445). A running
 * sandbox sees the TPPs onboarded this way at once.
 */
export async function openDirectoryOffline(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<OfflineDirectory> {
  const layout = dataDirLayout(dataDir)
  const pki = await loadOrCreatePki(layout)
  const running = runningSandbox(layout)
  const addresses = running
    ? { baseUrl: running.baseUrl, authUrl: running.authUrl, directoryUrl: running.directoryUrl }
    : addressesForPort(DEFAULT_SANDBOX_PORT)
  const directory = await createDirectory({ addresses, layout, clock: new SandboxClock(0), pki, log })
  return { directory, pki, layout, addresses, runningPid: running?.pid }
}
