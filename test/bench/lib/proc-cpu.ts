/**
 * CPU time a process has used (user + system, all its threads), from Linux's /proc/<pid>/stat. Server CPU
 * per request is far less disturbed by other work on a shared machine than requests per second are, so
 * P3 reports it next to the throughput.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

let ticksPerSecond: number | undefined

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      ticksPerSecond = 100
    }
  }
  return ticksPerSecond
}

/** User + system CPU milliseconds used so far by process `pid`; undefined where /proc is not available. */
export function processCpuMs(pid: number): number | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // Fields after the command name (which may hold spaces, inside parentheses): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? (ticks * 1000) / clockTicks() : undefined
}

/**
 * CPU milliseconds the calling thread (the main thread, called from it) has run so far: Node's own
 * `process.threadCpuUsage` where it has one (Node 23.9 and later), else Linux's scheduler statistics of the
 * thread (/proc/self/task/<pid>/schedstat: nanoseconds on the CPU); undefined where neither exists. Unlike
 * `process.cpuUsage`, it leaves out the process's other threads (garbage collection helpers, workers), and
 * unlike /proc/<pid>/stat it is not counted in 10 ms ticks: fine enough for one journey's parts.
 */
export function mainThreadCpuMs(): number | undefined {
  const own = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage
  if (own) {
    const used = own.call(process)
    return (used.user + used.system) / 1000
  }
  try {
    const ns = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0])
    return Number.isFinite(ns) ? ns / 1e6 : undefined
  } catch {
    return undefined
  }
}
