/**
 * Reading the authorisation server's answer out of a redirect, whichever way it came back: the loopback
 * listener, the console's custom-scheme deeplink, or a URL the user pasted. The hybrid flow answers in the
 * fragment (`#code=…&id_token=…&state=…`); errors may come in the fragment or the query.
 */
export type CaptureSource = 'headless' | 'loopback' | 'deeplink' | 'pasted'

export interface CapturedRedirect {
  source: CaptureSource
  /** The redirect as received (the fragment included). */
  url: string
  params: Record<string, string>
  code?: string
  idToken?: string
  state?: string
  error?: string
  errorDescription?: string
  /** Where the code came: the fragment (the hybrid flow's response mode) or the query. */
  codeIn?: 'fragment' | 'query'
}

export class RedirectParseError extends Error {
  /** `not-a-url`: the text is no URL; `no-response`: a URL with no code, id_token or error (a fragment lost on the way). */
  constructor(
    message: string,
    readonly fix: string,
    readonly kind: 'not-a-url' | 'no-response' = 'not-a-url',
  ) {
    super(message)
  }
}

/** What an OAuth `error=` return means for a TPP developer, and what to do. */
export function explainAuthorisationError(error: string, description?: string): { cause: string; fix: string } {
  const said = description ? ` The bank said: "${description}".` : ''
  switch (error) {
    case 'access_denied':
      return {
        cause: `The PSU refused the consent, or the bank refused it on the PSU's behalf.${said}`,
        fix: 'Create a new consent and send the PSU to authorise it again; the refused consent is now RJCT.',
      }
    case 'invalid_request_object':
    case 'invalid_request':
      return {
        cause: `The bank rejected the authorisation request or its request object.${said}`,
        fix: 'Check the request object: aud is the issuer, exp is in the future (at most 60 minutes after nbf), redirect_uri is registered, and the signature algorithm is one the client registered.',
      }
    case 'unauthorized_client':
      return {
        cause: `The client may not use this flow or scope.${said}`,
        fix: 'Check the client was registered with response_types "code id_token" and the scope (accounts or payments) its software statement roles allow.',
      }
    case 'invalid_scope':
      return {
        cause: `The scope asked for is not allowed for this client or intent.${said}`,
        fix: 'Use "openid accounts" for an account access consent and "openid payments" for a payment consent.',
      }
    case 'login_required':
    case 'interaction_required':
    case 'consent_required':
      return {
        cause: `The bank needs the PSU to interact, and the request did not allow it.${said}`,
        fix: 'Send the PSU to the authorisation URL in a browser (or the bank app) instead of a headless call.',
      }
    case 'server_error':
    case 'temporarily_unavailable':
      return {
        cause: `The bank could not complete the authorisation.${said}`,
        fix: 'Retry later; if it persists, contact the bank with the x-fapi-interaction-id of the consent call.',
      }
    default:
      return {
        cause: `The bank returned the OAuth error "${error}".${said}`,
        fix: 'See the error description; the consent stays unauthorised.',
      }
  }
}

/**
 * Parses a redirect URL into its authorisation response. Fragment parameters win over query parameters
 * (the hybrid flow's default response mode is the fragment). Throws RedirectParseError naming the problem
 * when the text is not a URL or carries neither a code nor an error.
 */
export function parseRedirect(text: string, source: CaptureSource): CapturedRedirect {
  const trimmed = text.trim()
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw new RedirectParseError(
      `"${trimmed.slice(0, 80)}" is not a URL.`,
      'Paste the whole address the browser or the bank app returned to, starting with its scheme (https://, http://127.0.0.1 or the app scheme).',
    )
  }
  const params: Record<string, string> = {}
  for (const [k, v] of new URLSearchParams(url.search)) params[k] = v
  for (const [k, v] of new URLSearchParams(url.hash.replace(/^#/, ''))) params[k] = v
  if (!params.code && !params.error && !params.id_token) {
    throw new RedirectParseError(
      'The URL carries no authorisation response (no code, id_token or error in its fragment or query).',
      "Paste the address of the redirect itself: it ends with #code=…&id_token=…&state=… (or ?error=…). Some browsers drop the fragment when copying from the address bar; copy it from the page the console's listener showed instead.",
      'no-response',
    )
  }
  const fragmentCode = new URLSearchParams(url.hash.replace(/^#/, '')).get('code')
  return {
    source,
    url: trimmed,
    params,
    code: params.code,
    idToken: params.id_token,
    state: params.state,
    error: params.error,
    errorDescription: params.error_description,
    ...(params.code ? { codeIn: fragmentCode ? ('fragment' as const) : ('query' as const) } : {}),
  }
}
