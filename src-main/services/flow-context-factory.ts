import type { CaptureMode } from '../contract/api.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import type { CaptureHub } from '../flows/capture/capture-hub.ts'
import { discoveryStep, type Discovery } from '../flows/common/discovery.ts'
import { readTokens, tokenRequest } from '../flows/common/tokens.ts'
import type { FlowContext } from '../flows/flow-context.ts'
import { ps256SigningKey } from '../signing/signing-key.ts'
import type { EnvironmentsService } from './environments-service.ts'
import { createFlowSigner } from './flow-signer.ts'
import type { HttpEngine } from './ports.ts'
import type { RegistrationService } from './registration-service.ts'
import type { TppsService } from './tpps-service.ts'
import { checkHeadlessCapture } from './headless-capture.ts'

/** The context of one flow run of a registered client: its environment, redirect URI, HTTP, signer, capture. */
export type ContextFor = (
  environmentId: string,
  clientId: string,
  capture: CaptureMode,
  flowId?: string,
) => Promise<FlowContext>

export interface FlowContextDeps {
  environments: EnvironmentsService
  tpps: TppsService
  /** The registered clients (read when a context is made: the service is built after the factory). */
  registration: () => RegistrationService
  http: HttpEngine
  hub: CaptureHub
  clock: Clock
  /** How long a flow waits for the PSU (ms). */
  captureTimeoutMs?: number
  /** Desktop: opens the auth window; the URL it returns to is handed to `deliverDeeplink`. */
  openAuthWindow?: (authorisationUrl: string, redirectUri: string, deliver: (url: string) => void) => void
  deliverDeeplink: (url: string) => void
}

/**
 * The registered redirect URI the PSU returns to for a capture mode: the loopback listener's when the client has
 * it, the console's scheme for deeplinks and the auth window, else an https one, else the first.
 */
export function redirectUriFor(redirectUris: readonly string[], capture: CaptureMode, loopback?: string): string {
  const consoleScheme = redirectUris.find((u) => u.startsWith('ob-console:'))
  const redirectUri =
    capture === 'loopback' || capture === 'headless'
      ? loopback && redirectUris.includes(loopback)
        ? loopback
        : redirectUris[0]
      : capture === 'deeplink' || capture === 'auth-window'
        ? (consoleScheme ?? redirectUris[0])
        : (redirectUris.find((u) => u.startsWith('https://')) ?? redirectUris[0])
  if (!redirectUri)
    throw new AppError('INVALID_INPUT', {
      what: 'The client has no redirect URI.',
      cause: 'The bank returns the PSU to a registered redirect URI.',
      fix: 'Register the client with at least one redirect URI.',
    })
  if (capture === 'loopback' && redirectUri !== loopback) {
    throw new AppError('INVALID_INPUT', {
      what: "Loopback capture needs the client registered with the listener's redirect URI.",
      cause: `The listener is ${loopback ?? 'not running'}; the client has ${redirectUris.join(', ')}.`,
      fix: 'Register a client whose redirect URIs include the loopback URI, or paste the returned URL instead.',
    })
  }
  return redirectUri
}

function captureOf(deps: FlowContextDeps, mode: CaptureMode): FlowContext['capture'] {
  const open = deps.openAuthWindow
  return {
    mode,
    hub: deps.hub,
    timeoutMs: deps.captureTimeoutMs ?? 15 * 60_000,
    ...(open
      ? {
          openAuthWindow: (url: string, redirect: string) =>
            open(url, redirect, (returned) => deps.deliverDeeplink(returned)),
        }
      : {}),
  }
}

/** Makes the flows' contexts: a client must be registered in the environment it runs in. */
export function flowContextFactory(deps: FlowContextDeps): ContextFor {
  const { environments, tpps, http, hub, clock } = deps
  return async (environmentId, clientId, capture, flowId) => {
    const registration = deps.registration()
    const client = registration.record(clientId)
    if (client.environmentId !== environmentId)
      throw new AppError('INVALID_INPUT', {
        what: `Client ${clientId} is registered in another environment.`,
        cause: `It belongs to ${client.environmentId}.`,
        fix: 'Pick a client registered in this environment.',
      })
    const env = environments.get(environmentId)
    // A flow's capture (the client-credentials context asks for none: it names no flow).
    if (flowId) checkHeadlessCapture(capture, env, client)
    const material = await tpps.material(client.tppId)
    const flowHttp = http.forIdentity(env, material.transport, { tppId: client.tppId, ...(flowId ? { flowId } : {}) })
    const redirectUri = redirectUriFor(client.redirectUris, capture, hub.loopbackRedirectUri)
    const signer = createFlowSigner({
      ...(material.signing ? { signer: ps256SigningKey(material.signing.key, material.signing.kid) } : {}),
      ...(material.record.orgId ? { orgId: material.record.orgId } : {}),
      ...(material.record.softwareId ? { softwareId: material.record.softwareId } : {}),
      environmentKind: env.kind,
      http: flowHttp,
      clock,
    })
    return {
      environment: env,
      client: {
        clientId,
        authMethod: client.authMethod,
        secret: await registration.secret(clientId),
        redirectUri,
        orgId: material.record.orgId ?? '',
        softwareId: material.record.softwareId ?? '',
      },
      http: flowHttp,
      signer,
      capture: captureOf(deps, capture),
      now: () => clock.now(),
    }
  }
}

/**
 * A client-credentials access token of a registered client (registration management, the consents' reads and
 * revocations): discovery, then the token request, in a headless context of the client's environment.
 */
export function clientCredentialsToken(
  contextFor: ContextFor,
  registration: () => RegistrationService,
): (clientId: string, scope?: string) => Promise<string> {
  return async (clientId, scope) => {
    const client = registration().record(clientId)
    const ctx = await contextFor(client.environmentId, clientId, 'headless')
    const discovery = (
      await discoveryStep().run(ctx, {
        exchange: () => undefined,
        output: () => {
          throw new Error('unused')
        },
        has: () => false,
        setAwaiting: () => undefined,
        flowId: '',
      })
    ).output as Discovery
    const res = await tokenRequest(
      ctx,
      discovery,
      { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
      'token (client_credentials, registration management)',
    )
    return readTokens(res, 'The client-credentials token for registration management failed').accessToken
  }
}
