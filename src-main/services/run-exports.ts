// The exports of a run (HAR, Postman collection and environment, curl commands), built from the exchange log,
// checked before the run (the command line's `outputFile`), written at its end, and kept for `ob-console export` (a run's
// file in `<data dir>/runs/`, its secret variables in the encrypted secret store).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { ExchangeDto } from '../contract/exchange.ts'
import type { SecretStore } from '../certificates/secret-store.ts'
import { AppError } from '../core/app-error.ts'
import { toCurl, type CurlOptions } from '../http/curl.ts'
import { toHar } from '../http/har.ts'
import { toPostmanCollection, type PostmanCollection } from '../http/postman.ts'
import { templateExchanges, toPostmanEnvironment, type PostmanVariable } from '../http/postman-variables.ts'
import type { HttpEngine } from './ports.ts'

/** The files a run's exports go to, by the flag that named each. */
export interface ExportTargets {
  har?: string
  postman?: string
  postmanEnv?: string
  curl?: string
}

/** A run's exports, ready to write. `variables` holds the values (secrets included): main side only. */
export interface RunExports {
  name: string
  collection: PostmanCollection
  variables: PostmanVariable[]
  har: object
  curl: string
}

/**
 * Builds the exports of the exchanges given (a run's, in order): the Postman collection with variables
 * (`templateExchanges`) and the values beside it, the masked HAR, and one curl command per exchange; HAR and
 * curl carry the environment's TLS setting (`tls`: `--cacert` for an exact CA, `-k` where verification is off).
 */
export function buildRunExports(
  http: HttpEngine,
  ids: string[],
  options: { name: string; environment?: EnvironmentDto; tls: (exchange: ExchangeDto) => CurlOptions },
): RunExports {
  const raw = ids.map((id) => http.exchanges.raw(id))
  const masked = ids.map((id) => http.exchanges.get(id))
  const env = options.environment
  const { exchanges, variables } = templateExchanges(raw, env ? { baseUrl: env.baseUrl, authUrl: env.authUrl } : {})
  const first = masked.find((e) => e.environmentId)
  const tls = first ? options.tls(first) : {}
  const collection = toPostmanCollection(exchanges, options.name, {
    variables,
    tls: {
      ...(tls.caPath ? { caPath: tls.caPath } : {}),
      ...(tls.certPath ? { certPath: tls.certPath } : {}),
      ...(tls.keyPath ? { keyPath: tls.keyPath } : {}),
      ...(env ? { verification: env.tlsVerification } : {}),
    },
  })
  const curl = masked
    .map(
      (e, i) =>
        `# ${i + 1}. ${e.label ? `${e.label}: ` : ''}${e.request.method} ${e.request.url}\n${toCurl(e, options.tls(e))}`,
    )
    .join('\n\n')
  return { name: options.name, collection, variables, har: toHar(masked, undefined, options.tls), curl }
}

function write(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 })
}

/**
 * Writes the exports asked for (each file mode 0600: the HAR names the bank's addresses, the environment holds
 * tokens); returns one line per file written.
 */
export function writeRunExports(exports: RunExports, targets: ExportTargets, exportedAt: string): string[] {
  const lines: string[] = []
  if (targets.har) {
    const path = resolve(targets.har)
    write(path, JSON.stringify(exports.har, null, 2) + '\n')
    const entries = (exports.har as { log: { entries: unknown[] } }).log.entries.length
    lines.push(`HAR written to ${path} (${entries} exchanges; tokens and codes masked, private keys removed)`)
  }
  if (targets.postman) {
    const path = resolve(targets.postman)
    write(path, JSON.stringify(exports.collection, null, 2) + '\n')
    lines.push(
      `Postman collection written to ${path} (${exports.collection.item.length} requests; values as {{variables}}: ${exports.variables.map((v) => v.key).join(', ') || 'none'})`,
    )
  }
  if (targets.postmanEnv) {
    const path = resolve(targets.postmanEnv)
    write(path, JSON.stringify(toPostmanEnvironment(exports.name, exports.variables, exportedAt), null, 2) + '\n')
    lines.push(`Postman environment written to ${path} (mode 0600: it holds the run's tokens; no private key)`)
  }
  if (targets.curl) {
    const path = resolve(targets.curl)
    write(path, exports.curl + '\n')
    lines.push(`curl commands written to ${path} (tokens masked; TLS flags as the environment trusts the bank)`)
  }
  return lines
}

/** How many runs `ob-console export` keeps (the oldest go first). */
export const KEPT_RUNS = 20

interface StoredRun {
  format: 'ob-console.run-exports/1'
  flowId: string
  finishedAt: string
  name: string
  collection: PostmanCollection
  /** Non-secret values; the secret ones are in the secret store (`run-<flowId>`). */
  variables: Array<Omit<PostmanVariable, 'value'> & { value?: string }>
  har: object
  curl: string
}

const runsDir = (dataDir: string) => join(dataDir, 'runs')
const secretId = (flowId: string) => `run-${flowId.replace(/[^A-Za-z0-9._-]/g, '_')}`.slice(0, 128)

/** Keeps a run's exports for `ob-console export`: the file without secrets, the secret values encrypted. */
export async function storeRun(
  dataDir: string,
  secrets: SecretStore,
  flowId: string,
  exports: RunExports,
  finishedAt: string,
): Promise<void> {
  const dir = runsDir(dataDir)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const secret = exports.variables.filter((v) => v.secret)
  if (secret.length) await secrets.put(secretId(flowId), JSON.stringify(secret.map((v) => [v.key, v.value])))
  const stored: StoredRun = {
    format: 'ob-console.run-exports/1',
    flowId,
    finishedAt,
    name: exports.name,
    collection: exports.collection,
    variables: exports.variables.map((v) => (v.secret ? { key: v.key, secret: true, description: v.description } : v)),
    har: exports.har,
    curl: exports.curl,
  }
  write(join(dir, `${secretId(flowId)}.json`), JSON.stringify(stored))
  const runs = listRuns(dataDir)
  for (const old of runs.slice(0, Math.max(0, runs.length - KEPT_RUNS))) {
    rmSync(join(dir, `${secretId(old.flowId)}.json`), { force: true })
    await secrets.delete(secretId(old.flowId))
  }
}

/** The runs kept, oldest first. */
export function listRuns(dataDir: string): Array<{ flowId: string; finishedAt: string; name: string }> {
  let files: string[]
  try {
    files = readdirSync(runsDir(dataDir)).filter((f) => f.endsWith('.json'))
  } catch {
    return []
  }
  return files
    .flatMap((f) => {
      try {
        const r = JSON.parse(readFileSync(join(runsDir(dataDir), f), 'utf8')) as StoredRun
        return r.format === 'ob-console.run-exports/1'
          ? [{ flowId: r.flowId, finishedAt: r.finishedAt, name: r.name }]
          : []
      } catch {
        return []
      }
    })
    .sort((a, b) => a.finishedAt.localeCompare(b.finishedAt))
}

/** A kept run's exports, its secret values decrypted; `NOT_FOUND` naming the runs kept when there is none. */
export async function loadRun(dataDir: string, secrets: SecretStore, flowId: string | 'last'): Promise<RunExports> {
  const runs = listRuns(dataDir)
  const id = flowId === 'last' ? runs.at(-1)?.flowId : flowId
  const file = id && join(runsDir(dataDir), `${secretId(id)}.json`)
  let stored: StoredRun | undefined
  try {
    stored = file ? (JSON.parse(readFileSync(file, 'utf8')) as StoredRun) : undefined
  } catch {
    stored = undefined
  }
  if (!stored || stored.flowId !== id)
    throw new AppError('NOT_FOUND', {
      what: flowId === 'last' ? `No run is kept in ${dataDir}.` : `No run ${flowId} is kept in ${dataDir}.`,
      cause: runs.length
        ? `The runs kept are ${runs.map((r) => `${r.flowId} (${r.name}, ${r.finishedAt})`).join(', ')}.`
        : 'ais, pis and onboard keep their run for export only with a --data-dir (or the default data directory), and the last 20 runs only.',
      fix: runs.length
        ? 'Give --flow one of these ids, or --last.'
        : 'Run ob-console ais (or pis) with this --data-dir first.',
    })
  const values = new Map<string, string>(JSON.parse((await secrets.get(secretId(stored.flowId))) ?? '[]'))
  return {
    name: stored.name,
    collection: stored.collection,
    variables: stored.variables.map((v) => ({ ...v, value: v.value ?? values.get(v.key) ?? '' })),
    har: stored.har,
    curl: stored.curl,
  }
}
