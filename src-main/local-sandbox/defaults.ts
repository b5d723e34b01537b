/** The default port of `{base_url}`; `{auth_url}` is the next one and the directory the one after. */
export const DEFAULT_SANDBOX_PORT = 8443

/** `iss` of every software statement assertion the local directory signs. */
export const DIRECTORY_ISSUER = 'OB Console Local Directory'
