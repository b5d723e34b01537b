import { AppError } from '../core/app-error.ts'
import type { HttpEngine } from './ports.ts'
import type { StarterKitFetcher, StarterKitJson } from './tpp-starter-kit.ts'

/**
 * Asks the running local sandbox's directory for a starter kit (POST `{directory}/tpps`), with the redirect URIs
 * the console can capture on; the directory issues the organisation, software statement and keys.
 */
export function localStarterKitFetcher(
  http: HttpEngine,
  localDirectory: () => { directoryUrl: string } | undefined,
  redirectUris: readonly string[],
): StarterKitFetcher {
  return async (env, input): Promise<StarterKitJson> => {
    const dir = localDirectory()
    if (!dir)
      throw new AppError('NOT_FOUND', {
        what: 'The local sandbox is not running.',
        cause: 'Its directory issues the starter kit.',
        fix: 'Start the local sandbox first (environments.startLocalSandbox).',
      })
    const res = await http.forIdentity(env, undefined, {}).send({
      method: 'POST',
      url: `${dir.directoryUrl}/tpps`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        ...(input.clientName ? { clientName: input.clientName } : {}),
        redirectUris: [...redirectUris],
      }),
      label: 'directory onboarding (starter kit)',
      clientCertificate: false,
    })
    if (res.status !== 201)
      throw new AppError('HTTP_ERROR', {
        what: `The local directory answered ${res.status}.`,
        cause: res.text.slice(0, 300),
        fix: 'See the exchange; restart the local sandbox if it persists.',
      })
    return res.json as StarterKitJson
  }
}
