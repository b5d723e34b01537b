import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Agent, request } from 'undici'
import { defaultDataDir, runningSandbox, type DataDirLayout } from '../local-sandbox/index.ts'
import { readConformanceReport, type ConformanceReportWire } from '../plumbing/conformance-report.ts'
import { readAdminTokenFile } from './admin-token-flag.ts'
import { SANDBOX_REPORT_USAGE } from './usage.ts'
import { writeErr, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'
import { reportBadCommandLine, UsageError } from './cli-support.ts'
import { httpsUrlFlag, inputFile, parseFlags } from './flags.ts'

/** Exit codes of `ob-console sandbox report` (docs/local-sandbox.md, "Conformance report"). */
export const REPORT_EXIT = {
  /** Every rule checked on the client's requests passed. */
  ok: 0,
  /** At least one rule failed: the bank would have refused or frowned on a request. */
  ruleFailed: 1,
  /** A bad command line. */
  usage: 2,
  /** No report: no sandbox found or reached, or nothing recorded for the client. */
  noReport: 3,
} as const

class NoReport extends Error {}

const OPTIONS = {
  client: { type: 'string' },
  json: { type: 'boolean' },
  directory: { type: 'string' },
  ca: { type: 'string' },
  'data-dir': { type: 'string' },
  'admin-token-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The data directory's paths, without creating anything (a report only reads). */
function layoutOf(dir: string): DataDirLayout {
  const root = resolve(dir)
  return {
    root,
    pki: join(root, 'pki'),
    directory: join(root, 'directory'),
    auth: join(root, 'auth'),
    state: join(root, 'state'),
  }
}

function readCa(file: string, why: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (err) {
    throw new NoReport(
      `cannot read the CA bundle ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); ${why}`,
    )
  }
}

/** Where the directory is and which CA bundle its TLS certificate chains to. */
function target(values: { directory?: string; ca?: string; 'data-dir'?: string }): {
  directoryUrl: string
  caPem: string
} {
  const layout = layoutOf(values['data-dir'] ?? defaultDataDir())
  const bundle = join(layout.pki, 'ca-bundle.pem')
  if (values.directory !== undefined) {
    let url: URL
    try {
      url = new URL(values.directory)
    } catch {
      throw new UsageError(
        `--directory must be the sandbox's directory URL, such as https://127.0.0.1:8445; got "${values.directory}"`,
      )
    }
    if (url.protocol !== 'https:')
      throw new UsageError(
        `--directory must be an https URL (the directory serves TLS only); got "${values.directory}"`,
      )
    const why = values.ca
      ? "give the sandbox's pki/ca-bundle.pem with --ca"
      : "give it with --ca FILE (the sandbox's pki/ca-bundle.pem), or --data-dir of that sandbox"
    const caPem = readCa(values.ca ?? bundle, why)
    return { directoryUrl: url.origin, caPem }
  }
  const running = runningSandbox(layout)
  if (!running) {
    throw new NoReport(
      `no sandbox runs on the data dir ${layout.root} (no live state/running.json); ` +
        'give the data dir of the running sandbox with --data-dir, or its directory URL with --directory',
    )
  }
  return { directoryUrl: running.directoryUrl, caPem: readCa(values.ca ?? bundle, 'give it with --ca FILE') }
}

async function fetchReport(
  directoryUrl: string,
  caPem: string,
  clientId: string,
  adminToken: string | undefined,
): Promise<ConformanceReportWire> {
  const agent = new Agent({ connect: { ca: caPem }, connections: 1 })
  try {
    const url = `${directoryUrl}/admin/conformance?client_id=${encodeURIComponent(clientId)}`
    let res: Awaited<ReturnType<typeof request>>
    try {
      res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}) },
        dispatcher: agent,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      })
    } catch (err) {
      const why = (err as { code?: string }).code ?? (err as Error).message
      throw new NoReport(
        `cannot reach the sandbox's directory at ${directoryUrl} (${why}); is the sandbox running, and is this its directory URL?`,
      )
    }
    const text = await res.body.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new NoReport(
        `${url} answered ${res.statusCode} with a body that is not JSON; is this the local sandbox's directory?`,
      )
    }
    if (res.statusCode !== 200) {
      const description = (json as { error_description?: unknown } | null)?.error_description
      throw new NoReport(
        `${url} answered ${res.statusCode}: ${typeof description === 'string' ? description : text.slice(0, 300)}`,
      )
    }
    const read = readConformanceReport(json)
    if ('problem' in read)
      throw new NoReport(
        `${url} answered with something that is not a conformance report this command reads (${read.problem}); is this the local sandbox's directory, and of this version?`,
      )
    return read.report
  } finally {
    await agent.close()
  }
}

/** The report for people: one line per rule, the failures under a failed rule. */
export function formatReport(r: ConformanceReportWire): string {
  const failed = r.rules.filter((x) => x.failed > 0)
  const who = `${r.keyedBy === 'certificate' ? 'the certificate' : 'client'} ${r.clientId}`
  const verdict = r.ok ? 'every rule passed' : `${failed.length} rule(s) failed`
  const lines = [`Conformance report of ${who}: ${verdict} (${r.requests} request(s), ${r.firstSeen} to ${r.lastSeen})`]
  const width = Math.max(...r.rules.map((x) => x.id.length))
  for (const rule of r.rules) {
    const mark = rule.failed ? '✗' : rule.passed ? '✓' : '·'
    lines.push(
      `  ${mark} ${rule.id.padEnd(width)}  passed ${String(rule.passed).padStart(3)}  failed ${String(rule.failed).padStart(3)}  ${rule.title}`,
    )
    for (const f of rule.lastFailures) {
      const how = f.refused ? ' (refused)' : ' (answered, recorded)'
      // The path, the interaction id and the detail come from the client's requests: one line each, escaped.
      lines.push(
        `      ${f.at} ${one(f.method)} ${one(f.path)} -> ${f.status}${how} x-fapi-interaction-id ${one(f.interactionId)}`,
      )
      lines.push(`        ${one(f.detail)}`)
    }
    if (rule.failed) lines.push(`      rests on: ${rule.spec}`)
  }
  return lines.join('\n') + '\n'
}

/**
 * `ob-console sandbox report --client ID`: reads the running sandbox's conformance report of a client
 * from its directory's admin endpoint. Exit 0 when every rule passed, 1 when one failed, 2 for a bad
 * command line, 3 when there is no report (see REPORT_EXIT).
 */
export async function runSandboxReportCommand(argv: string[]): Promise<number> {
  const json = argv.includes('--json')
  let values: {
    client?: string
    json?: boolean
    directory?: string
    ca?: string
    'data-dir'?: string
    'admin-token-file'?: string
    help?: boolean
  }
  try {
    values = parseFlags(argv, OPTIONS).values
    if (values.help) {
      writeOut(SANDBOX_REPORT_USAGE)
      return REPORT_EXIT.ok
    }
    if (!values.client?.trim())
      throw new UsageError(
        '--client ID is required: the client id whose requests to report (or cert:<x5t#S256>)',
        'Give --client with the client id (ob-console dcr list shows them).',
      )
    if (values.directory !== undefined)
      httpsUrlFlag('directory', values.directory, "Give the sandbox's directory URL, such as https://127.0.0.1:8445.")
    if (values.ca !== undefined) inputFile('ca', values.ca)
    const adminToken = readAdminTokenFile(values['admin-token-file'])
    const { directoryUrl, caPem } = target(values)
    const report = await fetchReport(directoryUrl, caPem, values.client.trim(), adminToken)
    if (values.json) writeJsonOut(report)
    else writeOut(formatReport(report))
    return report.ok ? REPORT_EXIT.ok : REPORT_EXIT.ruleFailed
  } catch (err) {
    if (err instanceof NoReport) {
      if (json) writeJsonOut({ error: { code: 'NO_REPORT', what: err.message } })
      writeErr(`ob-console sandbox report: ${err.message}\n`)
      return REPORT_EXIT.noReport
    }
    if (reportBadCommandLine(err, 'ob-console sandbox report', SANDBOX_REPORT_USAGE, json)) return REPORT_EXIT.usage
    throw err
  }
}
