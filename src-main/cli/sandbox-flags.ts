import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import {
  DEFAULT_SANDBOX_PORT,
  FaultRuleError,
  checkFaultRuleInputs,
  parseStoreSpec,
  publicHostProblem,
  type FaultRuleInput,
  type StoreSpec,
} from '../local-sandbox/index.ts'
import { isoDurationSeconds } from '../plumbing/iso-duration.ts'
import { UsageError } from './cli-support.ts'
import { inputFile, portFlag, writableDir } from './flags.ts'

/** The checks of `ob-console sandbox`'s flags (sandbox-command.ts): each bad value a usage error naming the flag. */

export function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SANDBOX_PORT
  if (!/^\d+$/.test(text) || Number(text) > 65533)
    throw new UsageError(
      `--port must be a whole number from 0 to 65533 (the sandbox also uses the next two ports), or 0 for free ports; got "${text}"`,
      'Give --port N (N to N+2 are used), or --port 0 for three free ports.',
    )
  return portFlag('port', text, 65533)
}

export function parseClockOffset(text: string | undefined): number {
  if (text === undefined) return 0
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : isoDurationSeconds(text)
  if (seconds === undefined)
    throw new UsageError(
      `--clock-offset must be a non-negative number of seconds (or an ISO 8601 duration such as P1D); got "${text}". The sandbox clock only runs ahead of wall time, never behind`,
    )
  return seconds
}

/** Throws when `dir` cannot be the data directory: a file, or a folder this user cannot write (or make). */
export function checkDataDir(dir: string): void {
  writableDir('data-dir', dir)
}

/** The rules of `--faults FILE`, checked before the sandbox starts. */
export function readFaultsFile(file: string | undefined): FaultRuleInput[] {
  if (file === undefined) return []
  const text = readFileSync(inputFile('faults', file), 'utf8')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new UsageError(
      `--faults ${file} is not valid JSON (${(err as Error).message}); give a JSON file {"rules": [...]}`,
    )
  }
  try {
    return checkFaultRuleInputs(json)
  } catch (err) {
    if (err instanceof FaultRuleError) throw new UsageError(`--faults ${file}: ${err.message}`)
    throw err
  }
}

/** `--store`, else `OB_SANDBOX_STORE`, checked: the backend to start on, or a usage error naming the flag. */
export function storeSpec(values: { store?: string }): StoreSpec {
  const fromFlag = values.store !== undefined
  const spec = parseStoreSpec(values.store ?? process.env.OB_SANDBOX_STORE)
  if (typeof spec === 'string') throw new UsageError(`${fromFlag ? '--store' : 'OB_SANDBOX_STORE'}: ${spec}`)
  return spec
}

export function portProblem(err: NodeJS.ErrnoException & { port?: number }, requested: number): string | undefined {
  if (err.code === 'EADDRINUSE')
    return `port ${err.port ?? requested} on 127.0.0.1 is in use (another sandbox?). The sandbox needs ports ${requested} to ${requested + 2}: choose others with --port N, or --port 0 for free ports`
  if (err.code === 'EACCES')
    return `port ${err.port ?? requested} on 127.0.0.1 needs privileges this user lacks; choose a port above 1023 with --port N, or --port 0 for free ports`
  return undefined
}

/** `--public-host`, `--public-port` and `--bind`, checked: the addresses the sandbox names and listens on. */
export function networkFlags(values: { 'public-host'?: string; 'public-port'?: string; bind?: string }): {
  publicHost?: string
  publicPort?: number
  bind?: string
} {
  const publicHost = values['public-host']
  const hostProblem = publicHost === undefined ? undefined : publicHostProblem(publicHost)
  if (hostProblem)
    throw new UsageError(
      `--public-host ${hostProblem}`,
      'Give the name or address the clients reach the sandbox by, such as sandbox.example.internal or 192.168.1.20.',
    )
  const publicPort =
    values['public-port'] === undefined ? undefined : portFlag('public-port', values['public-port'], 65533)
  const bind = values.bind
  if (bind !== undefined && isIP(bind) === 0)
    throw new UsageError(`--bind must be an IP address to listen on (127.0.0.1, 0.0.0.0, ::), got "${bind}"`)
  return { publicHost, publicPort, bind }
}
