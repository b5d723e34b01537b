/**
 * P9: a bank body too large for the console. A child console process (the HTTP engine as the flows use it)
 * fetches a 1 GiB body from the local sandbox's `oversize` fault, once with a Content-Length and once
 * streamed without one; its peak resident memory is compared with its own idle memory in the same run.
 * Context rows: a 100 MiB body refused by the default cap, and read whole under a raised cap (what every
 * body cost before the cap).
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT, startSandboxProcess } from './lib/sandbox-process.ts'
import type { Benchmark, BenchResult } from './lib/report.ts'

const MIB = 1024 * 1024
const PATH = '/open-banking/v4.0/aisp/accounts'
const CHILD = join(REPO_ROOT, 'test/bench/body-cap/fetch-child.ts')
const GOAL_MIB = 100

interface ChildResult {
  idleRss: number
  peakRss: number
  code: string
  status?: number
  ms: number
}

function runChild(input: object): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err = (err + d).slice(-3000)
    })
    const guard = setTimeout(() => child.kill('SIGKILL'), 180_000)
    child.on('exit', (code) => {
      clearTimeout(guard)
      const line = out.trim().split('\n').at(-1)
      if (code !== 0 || !line) return reject(new Error(`the console process exited with ${code}: ${err}`))
      resolve(JSON.parse(line) as ChildResult)
    })
    child.stdin.end(JSON.stringify(input))
  })
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`

export const bodyCapBenchmark: Benchmark = {
  ids: ['P9'],
  title: 'P9 a 1 GiB bank body: peak memory of the console process against its idle memory',
  async run(opts) {
    const sandbox = await startSandboxProcess()
    try {
      const kit = await sandbox.onboard(['AISP'])
      const base = {
        baseUrl: sandbox.baseUrl,
        authUrl: sandbox.authUrl,
        caBundlePath: sandbox.caBundlePath,
        certPem: kit.transportCertPem,
        keyPem: kit.transportKeyPem,
        path: PATH,
      }
      const results: BenchResult[] = []
      const cases: Array<{
        id: string
        what: string
        bytes: number
        chunked: boolean
        maxBodyBytes?: number
        target?: boolean
      }> = [
        { id: 'P9', what: '1 GiB body with Content-Length', bytes: 1024 * MIB, chunked: false, target: true },
        { id: 'P9-stream', what: '1 GiB body streamed, no length', bytes: 1024 * MIB, chunked: true, target: true },
        { id: 'P9-100MiB', what: '100 MiB body, default 50 MiB cap', bytes: 100 * MIB, chunked: true },
        {
          id: 'P9-100MiB-whole',
          what: '100 MiB body read whole (cap 200 MiB)',
          bytes: 100 * MIB,
          chunked: true,
          maxBodyBytes: 200 * MIB,
        },
      ]
      for (const c of cases) {
        opts.log(`P9: ${c.what}`)
        await sandbox.setFaults([
          {
            origin: 'base',
            method: 'GET',
            path: PATH,
            fault: { kind: 'oversize', bytes: c.bytes, chunked: c.chunked },
          },
        ])
        const r = await runChild({ ...base, ...(c.maxBodyBytes ? { maxBodyBytes: c.maxBodyBytes } : {}) })
        const growth = r.peakRss - r.idleRss
        const refused = r.code === 'RESPONSE_TOO_LARGE'
        const verdict = c.target ? (refused && growth < GOAL_MIB * MIB ? 'pass' : 'fail') : 'info'
        results.push({
          id: c.id,
          what: c.what,
          figure: `peak ${mib(r.peakRss)} (+${mib(growth)})`,
          peer: `idle ${mib(r.idleRss)}`,
          ratioText: `+${(growth / MIB).toFixed(1)} MiB`,
          target: c.target ? `refused, < +${GOAL_MIB} MiB` : 'context',
          verdict,
          note: `${refused ? 'refused with RESPONSE_TOO_LARGE' : r.code === 'none' ? `read whole (${r.status})` : `failed with ${r.code}`} in ${Math.round(r.ms)} ms`,
          data: {
            ...r,
            bytes: c.bytes,
            chunked: c.chunked,
            growthBytes: growth,
            maxBodyBytes: c.maxBodyBytes ?? 50 * MIB,
          },
        })
      }
      return results
    } finally {
      await sandbox.stop()
    }
  },
}
