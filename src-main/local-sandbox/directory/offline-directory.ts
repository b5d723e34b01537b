import { join } from 'node:path'
import { SandboxClock } from '../clock.ts'
import type { SandboxAddresses } from '../context.ts'
import { dataDirLayout, type DataDirLayout } from '../data-dir.ts'
import { loadOrCreatePki } from '../pki/ecosystem-pki.ts'
import type { EcosystemPki } from '../pki/types.ts'
import { JsonFile } from '../store/json-file.ts'
import { DEFAULT_SANDBOX_PORT } from '../defaults.ts'
import { createDirectory, type LocalDirectory } from './directory.ts'

export { DEFAULT_SANDBOX_PORT }

/** The addresses of a sandbox started on `port` (base), `port + 1` (auth) and `port + 2` (directory). */
export function addressesForPort(port: number): SandboxAddresses {
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    authUrl: `https://127.0.0.1:${port + 1}`,
    directoryUrl: `https://127.0.0.1:${port + 2}`,
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The addresses a sandbox running on this data directory announced in `state/running.json`, or
 * undefined when none runs (no file, or the process that wrote it is gone).
 */
export function runningSandbox(layout: DataDirLayout): (SandboxAddresses & { pid: number }) | undefined {
  let running: Partial<SandboxAddresses & { pid: number }> | undefined
  try {
    running = new JsonFile<Partial<SandboxAddresses & { pid: number }> | undefined>(
      join(layout.state, 'running.json'),
      () => undefined,
    ).read()
  } catch {
    return undefined
  }
  if (!running || typeof running.pid !== 'number' || !running.baseUrl || !running.authUrl || !running.directoryUrl)
    return undefined
  if (!processAlive(running.pid)) return undefined
  return running as SandboxAddresses & { pid: number }
}

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
