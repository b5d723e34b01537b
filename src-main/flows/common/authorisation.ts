import { randomUUID } from 'node:crypto'
import { AppError } from '../../core/app-error.ts'
import { parseRedirect, type CapturedRedirect } from '../capture/redirect-params.ts'
import { checkReturn, responseModeOf } from '../capture/return-errors.ts'
import type { FlowContext } from '../flow-context.ts'
import { jsonObject } from '../../http/json-body.ts'
import { stepKey, type StepDefinition, type StepKey } from '../step-machine.ts'
import { DISCOVERY_STEP, type Discovery } from './discovery.ts'
import { unexpectedAnswer } from './failures.ts'
import { CLIENT_CREDENTIALS_STEP, readTokens, tokenRequest, type TokenSet } from './tokens.ts'
import type { ConsentOutput } from './consent-journey.ts'

export interface AuthorisationRequest {
  /** Where the PSU goes: the bank's authorisation URL, or the app deeplink in production AIS. */
  url: string
  /** The HTTPS authorisation URL (also for the deeplink: its equivalent page). */
  authorisationUrl: string
  deeplink?: string
  state: string
  nonce: string
  redirectUri: string
  consentId: string
  via: 'o3-helper' | 'request-object' | 'app-deeplink'
}

export const AUTHORISATION_URL_STEP = stepKey<AuthorisationRequest>('authorisation-url')
export const CAPTURE_STEP = stepKey<CapturedRedirect>('capture')
export const ID_TOKEN_STEP = stepKey<{ checked: number }>('id-token')
export const CODE_EXCHANGE_STEP = stepKey<TokenSet>('code-exchange')

interface AuthorisationOptions {
  scope: 'accounts' | 'payments'
  consentStep: StepKey<ConsentOutput>
  via: 'o3-helper' | 'request-object' | 'app-deeplink'
}

function pick(obj: Readonly<Record<string, unknown>>, ...keys: string[]): string | undefined {
  for (const k of keys) if (typeof obj[k] === 'string') return obj[k] as string
  return undefined
}

type StepScope = Parameters<StepDefinition<FlowContext>['run']>[1]

/** The URL from the sandbox's `/o3/v1.0/auth-code-url` helper (it builds the request object itself, alg none). */
async function o3HelperRequest(
  ctx: FlowContext,
  scope: StepScope,
  opts: AuthorisationOptions,
  consentId: string,
  redirectUri: string,
): Promise<AuthorisationRequest> {
  const o3 = ctx.environment.apiPaths.o3
  if (!o3)
    throw new AppError('INVALID_INPUT', {
      what: 'This environment has no /o3 helper path.',
      cause: "The auth-code-url helper exists in the bank's sandbox only.",
      fix: 'Use a signed request object instead (authorisation URL from: request object).',
    })
  const cc = scope.output(CLIENT_CREDENTIALS_STEP)
  const url = `${ctx.environment.baseUrl}${o3}/auth-code-url/${encodeURIComponent(consentId)}?scope=${opts.scope}&alg=none&redirect_uri=${encodeURIComponent(redirectUri)}`
  const res = await ctx.http.send({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${cc.accessToken}`, accept: 'application/json' },
    label: 'o3 auth-code-url',
  })
  scope.exchange(res.exchangeId)
  const body = jsonObject(res.json)
  const authUrl =
    pick(body, 'url', 'authorisationUrl', 'authorizationUrl', 'authorization_url') ??
    (res.text.startsWith('https://') ? res.text.trim() : undefined)
  if (res.status !== 200 || !authUrl)
    throw unexpectedAnswer(
      res,
      'The auth-code-url helper failed',
      'Check the consent exists and belongs to this client; a strict client must sign its own request object.',
    )
  const params = new URL(authUrl).searchParams
  return {
    url: authUrl,
    authorisationUrl: authUrl,
    state: pick(body, 'state') ?? params.get('state') ?? '',
    nonce: pick(body, 'nonce') ?? params.get('nonce') ?? '',
    redirectUri: pick(body, 'redirect_uri', 'redirectUri') ?? params.get('redirect_uri') ?? redirectUri,
    consentId,
    via: 'o3-helper',
  }
}

/** The URL (or the bank app's deeplink) carrying a signed request object (PS256) with the consent id. */
async function requestObjectRequest(
  ctx: FlowContext,
  opts: AuthorisationOptions,
  discovery: Discovery,
  consentId: string,
  redirectUri: string,
): Promise<AuthorisationRequest> {
  const state = randomUUID()
  const nonce = randomUUID()
  const scopeParam = `openid ${opts.scope}`
  const jwt = await ctx.signer.requestObject({
    clientId: ctx.client.clientId,
    issuer: discovery.issuer,
    redirectUri,
    scope: scopeParam,
    state,
    nonce,
    consentId,
    alg: 'PS256',
  })
  const url = new URL(discovery.authorization_endpoint)
  url.search = new URLSearchParams({
    client_id: ctx.client.clientId,
    response_type: 'code id_token',
    scope: scopeParam,
    redirect_uri: redirectUri,
    state,
    nonce,
    request: jwt,
  }).toString()
  const deeplink =
    opts.via === 'app-deeplink' || (ctx.environment.kind === 'production' && opts.scope === 'accounts')
      ? `${ctx.environment.appScheme}://consent-access-request?${new URLSearchParams({ client_id: ctx.client.clientId, response_type: 'code id_token', scope: scopeParam, request: jwt })}`
      : undefined
  return {
    url: deeplink ?? url.toString(),
    authorisationUrl: url.toString(),
    deeplink,
    state,
    nonce,
    redirectUri,
    consentId,
    via: deeplink ? 'app-deeplink' : 'request-object',
  }
}

/** Step: the URL the PSU is sent to, from the sandbox's `/o3/v1.0/auth-code-url` helper or a signed request object. */
export function authorisationUrlStep(opts: AuthorisationOptions): StepDefinition<FlowContext, AuthorisationRequest> {
  return {
    id: AUTHORISATION_URL_STEP,
    title: 'Authorisation URL',
    explanation:
      opts.via === 'o3-helper'
        ? "Asks the sandbox's /o3 helper for the URL that sends the PSU to authorise the consent (it builds the request object itself, alg none)."
        : opts.via === 'app-deeplink'
          ? "Signs a request object (PS256) carrying the consent id as openbanking_intent_id, and builds the bank app's deeplink (consent-access-request) the PSU opens on the phone."
          : 'Signs a request object (PS256) carrying the consent id as openbanking_intent_id, and builds the URL that sends the PSU to the bank.',
    requires: [DISCOVERY_STEP, CLIENT_CREDENTIALS_STEP, opts.consentStep],
    async run(ctx, scope) {
      const discovery = scope.output(DISCOVERY_STEP)
      const { consentId } = scope.output(opts.consentStep)
      const redirectUri = ctx.client.redirectUri
      const request =
        opts.via === 'o3-helper'
          ? await o3HelperRequest(ctx, scope, opts, consentId, redirectUri)
          : await requestObjectRequest(ctx, opts, discovery, consentId, redirectUri)
      if (!request.state || !request.nonce) {
        throw new AppError('INVALID_INPUT', {
          what: 'The authorisation URL carries no state or nonce.',
          cause: "Without them the console cannot match the PSU's return or check the ID token.",
          fix: 'Use a signed request object instead of the helper.',
        })
      }
      return {
        output: request,
        summary: request.deeplink ? 'app deeplink ready' : `URL to ${new URL(request.authorisationUrl).host}`,
      }
    },
  }
}

/**
 * An HTML answer in words (`an HTML page titled "Sign in"`), never its markup: a login or error page met on a
 * headless authorisation. Undefined when the body is not HTML.
 */
export function pageWords(res: { headers: Record<string, string | undefined>; text: string }): string | undefined {
  const html = /html/i.test(res.headers['content-type'] ?? '') || /^\s*</.test(res.text)
  if (!html) return undefined
  const title = /<title[^>]*>([^<]{1,120})<\/title>/i.exec(res.text)?.[1]?.replace(/\s+/g, ' ').trim()
  return title ? `an HTML page titled "${title}"` : 'an HTML page'
}

async function followHeadless(
  ctx: FlowContext,
  request: AuthorisationRequest,
  note: (id: string) => void,
): Promise<CapturedRedirect> {
  let url = request.authorisationUrl
  for (let hop = 0; hop < 10; hop++) {
    const res = await ctx.http.send({ method: 'GET', url, label: `authorisation (headless) ${hop + 1}` })
    note(res.exchangeId)
    const location = res.headers.location
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new AppError('OAUTH_ERROR', {
        what: `The headless authorisation stopped at HTTP ${res.status} on ${new URL(url).pathname}.`,
        cause:
          res.status === 200
            ? `The bank showed ${pageWords(res) ?? 'a page'} (a login or consent screen): this client is not headless.`
            : `The bank answered ${res.status} with ${pageWords(res) ?? (res.text.trim() ? `"${res.text.trim().slice(0, 200)}"` : 'no body')}.`,
        fix: 'Use the loopback capture (the PSU logs in in a browser), or register a headless client in the sandbox.',
      })
    }
    const next = new URL(location, url).toString()
    if (next.startsWith(request.redirectUri)) return parseRedirect(next, 'headless')
    url = next
  }
  throw new AppError('OAUTH_ERROR', {
    what: 'The headless authorisation redirected more than 10 times.',
    cause: 'A redirect loop at the bank.',
    fix: 'Run it with the loopback capture and watch the browser.',
  })
}

/** Step: the PSU's return, captured headless, by the loopback listener, the auth window, a deeplink or a pasted URL. */
export function captureStep(): StepDefinition<FlowContext, CapturedRedirect> {
  return {
    id: CAPTURE_STEP,
    title: 'PSU authorisation',
    explanation:
      'The PSU authenticates at the bank and approves; the bank redirects back with an authorisation code and an ID token in the URL fragment.',
    requires: [AUTHORISATION_URL_STEP],
    async run(ctx, scope) {
      const request = scope.output(AUTHORISATION_URL_STEP)
      let captured: CapturedRedirect
      if (ctx.capture.mode === 'headless') {
        captured = await followHeadless(ctx, request, (id) => scope.exchange(id))
      } else {
        scope.setAwaiting({
          stepId: CAPTURE_STEP,
          authorisationUrl: request.authorisationUrl,
          deeplink: request.deeplink,
          redirectUri: request.redirectUri,
          state: request.state,
        })
        if (ctx.capture.mode === 'auth-window')
          ctx.capture.openAuthWindow?.(request.authorisationUrl, request.redirectUri)
        try {
          captured = await ctx.capture.hub.wait(request.state, ctx.capture.timeoutMs)
        } finally {
          scope.setAwaiting(undefined)
        }
      }
      // Each problem of the return is its own coded error with its way on (a new consent when refused,
      // authorise again when cut or answered in the wrong mode); what reaches here matches the request.
      checkReturn(
        captured,
        { state: request.state, responseMode: responseModeOf(request.authorisationUrl) },
        { repaste: false },
      )
      return {
        output: captured,
        summary: `code received (${captured.source})`,
        checks: [
          { name: 'state', pass: true, expected: request.state, actual: String(captured.state) },
          {
            name: 'code',
            pass: true,
            expected: 'present',
            actual: `present (in the ${captured.codeIn ?? 'fragment'})`,
          },
          {
            name: 'id_token',
            pass: !!captured.idToken,
            expected: 'present',
            actual: captured.idToken ? 'present' : 'missing',
            hint: 'The hybrid flow returns an ID token in the fragment; check the response_type.',
          },
        ],
      }
    },
  }
}

/** Step: the ID token of the hybrid flow, each check separately (signature, iss, aud, exp/iat, nonce, c_hash, s_hash, intent). */
export function idTokenStep(): StepDefinition<FlowContext, { checked: number }> {
  return {
    id: ID_TOKEN_STEP,
    title: 'ID token checks',
    explanation:
      "Verifies the ID token from the redirect: signature against the bank's JWKS, issuer, audience, times, nonce, c_hash, s_hash and openbanking_intent_id.",
    requires: [DISCOVERY_STEP, AUTHORISATION_URL_STEP, CAPTURE_STEP],
    async run(ctx, scope) {
      const discovery = scope.output(DISCOVERY_STEP)
      const request = scope.output(AUTHORISATION_URL_STEP)
      const captured = scope.output(CAPTURE_STEP)
      const checks = await ctx.signer.checkIdToken(
        captured.idToken!,
        {
          issuer: discovery.issuer,
          clientId: ctx.client.clientId,
          nonce: request.nonce,
          consentId: request.consentId,
          code: captured.code,
          state: captured.state,
        },
        discovery.jwks_uri,
      )
      const failed = checks.find((c) => !c.pass)
      return {
        output: { checked: checks.length },
        summary: `${checks.filter((c) => c.pass).length}/${checks.length} checks pass`,
        checks,
        whenChecksFail: {
          fix:
            `Do not use this return's authorisation code: its ID token does not prove it is the bank's answer to this request` +
            `${failed?.hint ? ` (${failed.name}: ${failed.hint})` : ''}. Start a new consent, so the PSU authorises ` +
            "with a fresh state and nonce; if the bank's ID token fails the same check again, report it to the bank with " +
            'its x-fapi-interaction-id (the inspector holds the return and the JWKS it was checked against).',
          wayOn: 'new-consent',
        },
      }
    },
  }
}

/** Step: the authorisation code exchanged for the PSU-authorised access token. */
export function codeExchangeStep(): StepDefinition<FlowContext, TokenSet> {
  return {
    id: CODE_EXCHANGE_STEP,
    title: 'Code exchange',
    explanation:
      "Exchanges the authorisation code for an access token bound to the PSU's consent (and a refresh token).",
    requires: [DISCOVERY_STEP, AUTHORISATION_URL_STEP, CAPTURE_STEP],
    async run(ctx, scope) {
      const discovery = scope.output(DISCOVERY_STEP)
      const request = scope.output(AUTHORISATION_URL_STEP)
      const captured = scope.output(CAPTURE_STEP)
      const res = await tokenRequest(
        ctx,
        discovery,
        { grant_type: 'authorization_code', code: captured.code!, redirect_uri: request.redirectUri },
        'token (authorization_code)',
      )
      scope.exchange(res.exchangeId)
      const tokens = readTokens(res, 'The code exchange failed')
      return {
        output: tokens,
        summary: `access token, ${tokens.expiresIn ?? '?'} s${tokens.refreshToken ? ', refresh token' : ''}`,
        checks: [
          {
            name: 'access token',
            pass: !!tokens.accessToken,
            expected: 'present',
            actual: tokens.accessToken ? 'present' : 'missing',
          },
        ],
      }
    },
  }
}
