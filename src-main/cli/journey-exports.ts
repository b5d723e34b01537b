import type { ExportTargets } from '../services/run-exports.ts'
import { buildRunExports, storeRun, writeRunExports } from '../services/run-exports.ts'
import type { ConsoleRuntime } from './console-runtime.ts'
import { writeErr } from '../plumbing/terminal-out.ts'

/** The files asked for (each checked with `outputFile` when the flags are parsed, before the run starts). */
export function exportTargets(v: { har?: string; postman?: string; 'postman-env'?: string }): ExportTargets {
  const targets: ExportTargets = {
    ...(v.har !== undefined ? { har: v.har } : {}),
    ...(v.postman !== undefined ? { postman: v.postman } : {}),
    ...(v['postman-env'] !== undefined ? { postmanEnv: v['postman-env'] } : {}),
  }
  return targets
}

/**
 * At the end of a run (also a failed one): writes the exports asked for and, when the store is kept (not a
 * throwaway one), keeps the run for `ob-console export`. A failure to write is reported on stderr and does not
 * change the run's outcome.
 */
export async function finishJourneyExports(
  rt: ConsoleRuntime,
  run: { kind: 'onboard' | 'ais' | 'pis'; flowId?: string; environmentId?: string; keep: boolean },
  targets: ExportTargets,
  say: (line: string) => void,
): Promise<void> {
  const wanted = Object.keys(targets).length > 0
  const keep = run.keep && run.flowId !== undefined
  if (!wanted && !keep) return
  try {
    const { http, environments } = rt.services
    const ids = http.exchanges.list({ limit: 5000 }).items.map((s) => s.id)
    const environment = environments.list().find((e) => e.id === run.environmentId)
    const at = new Date().toISOString()
    const exports = buildRunExports(http, ids, {
      name: `OB Console ${run.kind.toUpperCase()} run ${at}${environment ? ` (${environment.name})` : ''}`,
      ...(environment ? { environment } : {}),
      tls: (e) => rt.curlOptions(e),
    })
    for (const line of writeRunExports(exports, targets, at)) say(line)
    if (keep) {
      await storeRun(rt.dataDir, rt.services.secrets, run.flowId!, exports, at)
      say(`run kept for: ob-console export --flow ${run.flowId} --data-dir ${rt.dataDir} --postman FILE ...`)
    }
  } catch (err) {
    writeErr(`ob-console: the run's exports could not be written: ${(err as Error).message}\n`)
  }
}
