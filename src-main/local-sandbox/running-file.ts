import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { SandboxAddresses } from './context.ts'
import type { DataDirLayout } from './data-dir.ts'
import { JsonFile } from './store/json-file.ts'

/**
 * `state/running.json` of a data directory: the addresses and process id of the sandbox running on it, which
 * lets another process (`ob-console sandbox --issue-tpp`, `ob-console sandbox report`) find its directory.
 */
type RunningRecord = SandboxAddresses & { pid: number }

const runningPath = (layout: DataDirLayout): string => join(layout.state, 'running.json')

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
export function runningSandbox(layout: DataDirLayout): RunningRecord | undefined {
  let running: Partial<RunningRecord> | undefined
  try {
    running = new JsonFile<Partial<RunningRecord> | undefined>(runningPath(layout), () => undefined).read()
  } catch {
    return undefined
  }
  if (!running || typeof running.pid !== 'number' || !running.baseUrl || !running.authUrl || !running.directoryUrl)
    return undefined
  if (!processAlive(running.pid)) return undefined
  return running as RunningRecord
}

/** Announces this process's sandbox in `state/running.json`; the function returned removes the file. */
export function announceRunning(layout: DataDirLayout, addresses: SandboxAddresses): () => void {
  const record = { ...addresses, pid: process.pid }
  const file = new JsonFile<RunningRecord>(runningPath(layout), () => record)
  file.write(record)
  return () => rmSync(file.path, { force: true })
}
