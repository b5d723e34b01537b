import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'

const REPO = resolve(import.meta.dirname, '../../../../..')
const BIN = join(REPO, 'bin/ob-console.js')

/** A sandbox started as the command line does (`ob-console sandbox --store URL --json`), and the address line it printed. */
export interface SandboxProcess {
  child: ChildProcess
  baseUrl: string
  authUrl: string
  directoryUrl: string
  caBundlePath: string
}

/** Starts `ob-console sandbox` on free ports over `dataDir` and `store`; resolves with its `--json` address line. */
export function startSandboxProcess(dataDir: string, store: string): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', '--port', '0', '--data-dir', dataDir, '--store', store, '--json'],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise((res, rej) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      const nl = stdout.indexOf('\n')
      if (nl >= 0) res({ child, ...(JSON.parse(stdout.slice(0, nl)) as Omit<SandboxProcess, 'child'>) })
    })
    child.once('exit', (code) => rej(new Error(`sandbox exited ${code}: ${stderr}`)))
  })
}

/** Stops the process with `signal` (SIGTERM: a clean stop; SIGKILL: a crash) and waits for its exit. */
export async function stopSandboxProcess(
  i: SandboxProcess | undefined,
  signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
): Promise<void> {
  if (!i || i.child.exitCode !== null || i.child.signalCode !== null) return
  const exited = new Promise((res) => i.child.once('exit', res))
  i.child.kill(signal)
  await exited
}
