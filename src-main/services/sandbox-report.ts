/**
 * The local sandbox's conformance report of a client, read from `GET {directory}/admin/conformance?client_id=`
 * (docs/local-sandbox.md, "Conformance report"). Local sandbox only: the bank's sandbox keeps no such record.
 */
import type { SandboxReportDto } from '../contract/api.ts'
import { AppError } from '../core/app-error.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { HttpEngine } from './ports.ts'
import { jsonObject } from '../http/json-body.ts'
import { readConformanceReport } from '../plumbing/conformance-report.ts'

export class SandboxReportService {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly http: HttpEngine,
  ) {}

  async get(clientId: string): Promise<SandboxReportDto> {
    if (!clientId.trim() || clientId.length > 200) {
      throw new AppError('INVALID_INPUT', {
        what: 'The conformance report needs a client id.',
        cause: `Got ${JSON.stringify(clientId.slice(0, 40))}.`,
        fix: 'Give the client id of a client registered with the local sandbox.',
      })
    }
    const dir = this.environments.localDirectory()
    const env = this.environments.list().find((x) => x.kind === 'local-sandbox')
    if (!dir || !env) {
      throw new AppError('NOT_FOUND', {
        what: 'The local sandbox is not running.',
        cause: 'Only the embedded local sandbox records what each client did.',
        fix: 'Start the local sandbox first (Environments, or the Guide).',
      })
    }
    const url = `${dir.directoryUrl}/admin/conformance?client_id=${encodeURIComponent(clientId)}`
    // The console's own request (the inspector hides it unless asked), not one of the user's flows.
    const http = this.http.forIdentity(env, undefined, { byConsole: true })
    const res = await http.send({
      method: 'GET',
      url,
      headers: { accept: 'application/json' },
      label: 'sandbox conformance report',
      clientCertificate: false,
    })
    const j = jsonObject(res.json)
    if (res.status === 404) {
      throw new AppError('NOT_FOUND', {
        what: `Nothing is recorded for client ${clientId} yet.`,
        cause:
          typeof j.error_description === 'string'
            ? j.error_description
            : 'The client made no AIS or PIS call since the local sandbox started.',
        fix: 'Run a flow with this client, then refresh the report.',
      })
    }
    const read = res.status === 200 ? readConformanceReport(res.json) : undefined
    if (!read || 'problem' in read) {
      throw new AppError('HTTP_ERROR', {
        what: read
          ? 'The local directory answered with something that is not a conformance report this console reads.'
          : `Reading the conformance report failed: the local directory answered ${res.status}.`,
        cause: read
          ? `${read.problem}: is the local sandbox of another version?`
          : res.text.slice(0, 300) || 'No body.',
        fix: 'See the exchange in the inspector; restart the local sandbox if it persists.',
      })
    }
    // The report as it travels is the contract's DTO: this assignment keeps the two types in step.
    const { clientId: id, keyedBy, ok, requests, firstSeen, lastSeen, rules } = read.report
    const report: SandboxReportDto = { clientId: id, keyedBy, ok, requests, firstSeen, lastSeen, rules }
    return report
  }
}
