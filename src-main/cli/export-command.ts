import type { parseArgs } from 'node:util'
import { listRuns, loadRun, writeRunExports, type ExportTargets } from '../services/run-exports.ts'
import { reportError, UsageError } from './cli-support.ts'
import { withRuntime } from './cli-context.ts'
import { exportTargets } from './journey-exports.ts'
import { outputFile, parseFlags, writableDir } from './flags.ts'
import { EXPORT_USAGE } from './usage.ts'
import { writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'

const OPTIONS = {
  flow: { type: 'string' },
  last: { type: 'boolean' },
  postman: { type: 'string' },
  'postman-env': { type: 'string' },
  har: { type: 'string' },
  curl: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** `ob-console export`: the exports of a run kept in the data directory. */
export async function runExportCommand(argv: string[]): Promise<number> {
  let v: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>['values']
  try {
    v = parseFlags(argv, OPTIONS).values
  } catch (err) {
    return reportError(err, EXPORT_USAGE)
  }
  if (v.help) {
    writeOut(EXPORT_USAGE)
    return 0
  }
  try {
    if (!!v.flow === !!v.last)
      throw new UsageError('give one of --flow ID and --last', 'Give --last, or --flow with the id a run printed.')
    for (const flag of ['postman', 'postman-env', 'har', 'curl'] as const)
      if (v[flag] !== undefined) outputFile(flag, v[flag])
    if (v['data-dir'] !== undefined) writableDir('data-dir', v['data-dir'])
    if (v.flow !== undefined && !v.flow.trim()) throw new UsageError('--flow needs a run id')
    if (v['data-dir'] !== undefined && !v['data-dir'].trim()) throw new UsageError('--data-dir needs a folder')
    const all: ExportTargets = { ...exportTargets(v), ...(v.curl !== undefined ? { curl: v.curl } : {}) }
    if (!Object.keys(all).length)
      throw new UsageError('choose what to write: --postman FILE, --postman-env FILE, --har FILE or --curl FILE')
    return await withRuntime({ ...v, 'loopback-port': '0' }, EXPORT_USAGE, async (rt, say) => {
      const run = await loadRun(rt.dataDir, rt.services.secrets, v.last ? 'last' : v.flow!)
      const lines = writeRunExports(run, all, new Date().toISOString())
      for (const line of lines) say(line)
      if (v.json)
        writeJsonOut({
          name: run.name,
          runs: listRuns(rt.dataDir).length,
          written: all,
          variables: run.variables.map((x) => x.key),
        })
      return 0
    })
  } catch (err) {
    return reportError(err, EXPORT_USAGE)
  }
}
