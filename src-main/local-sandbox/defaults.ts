/** The default port of `{base_url}`; `{auth_url}` is the next one and the directory the one after. */
export const DEFAULT_SANDBOX_PORT = 8443
