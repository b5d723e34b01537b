/**
 * The way to the local sandbox's admin endpoints (`{directory_url}/admin/...`: its clock, its fault rules),
 * for the services that read and change them. No client certificate: the directory's admin needs none.
 */
import { AppError } from '../core/app-error.ts'
import type { FlowRequest, FlowResponse } from '../flows/flow-context.ts'
import type { EnvironmentsService } from './environments-service.ts'
import type { HttpEngine } from './ports.ts'

export interface SandboxAdmin {
  /** `{directory_url}/admin/<path>`. */
  url(path: string): string
  send(request: Omit<FlowRequest, 'clientCertificate'>): Promise<FlowResponse>
}

/** The running local sandbox's admin; NOT_FOUND when it does not run (`what` names what needed it). */
export function localSandboxAdmin(environments: EnvironmentsService, http: HttpEngine, what: string): SandboxAdmin {
  const dir = environments.localDirectory()
  const env = environments.list().find((x) => x.kind === 'local-sandbox')
  if (!dir || !env)
    throw new AppError('NOT_FOUND', {
      what: 'The local sandbox is not running.',
      cause: `Only the local sandbox has ${what} the console can reach.`,
      fix: 'Start the local sandbox first (Environments, or the Guide).',
    })
  // The console's own requests (the inspector hides them unless asked), not one of the user's flows.
  const client = http.forIdentity(env, undefined, { byConsole: true })
  return {
    url: (path) => `${dir.directoryUrl}/admin/${path}`,
    send: (request) => client.send({ ...request, clientCertificate: false }),
  }
}
