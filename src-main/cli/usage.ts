// The usage text of every command, apart from the commands themselves: `ob-console help` prints it without
// loading a command's modules (the sandbox, the engine), which is what keeps it fast.
import { DEFAULT_SERVE_PORT } from './serve-port.ts'

/**
 * The local sandbox's default `{base_url}` port (its DEFAULT_SANDBOX_PORT), written out here: importing the
 * sandbox's index.ts would load its modules for `help` too. test/unit/cli/usage.test.ts keeps the two equal.
 */
export const USAGE_SANDBOX_PORT = 8443

export const START_USAGE = `Usage:
  ob-console start [--no-build] [serve's flags]
      Build the console (electron-vite build), then open the desktop app; where no Electron runtime can be had,
      the same console in the browser (ob-console serve, with the flags given). --no-build skips the build.
`

export const SERVE_USAGE = `Usage:
  ob-console serve [--port N] [--data-dir DIR] [--sandbox-port N] [--loopback-port N] [--no-sandbox] [--json]
      Serve the console on http://127.0.0.1 (a per-launch token in the printed URL), with the embedded
      local sandbox started. The port is ${DEFAULT_SERVE_PORT} unless --port N says otherwise (--port 0: a free
      one); the same port on every start keeps the browser's theme choice. When ${DEFAULT_SERVE_PORT} is taken
      (another console), a free port is used and said. --json prints one JSON line first on stdout with "url".
`

export const SANDBOX_USAGE = `Usage:
  ob-console sandbox [--port N] [--data-dir DIR] [--fresh] [--json] [--tls-mode explain|handshake] [--clock-offset SECONDS]
                     [--faults FILE] [--psu-absent-quota per-endpoint|per-consent]
                     [--transport-certs self-signed-allowed|ca-issued] [--tls-client-auth] [--store URL]
                     [--admin-token-file FILE] [--bind ADDR] [--public-host NAME] [--public-port N]
      Start the local sandbox of the bank on 127.0.0.1: {base_url} on port N (default ${USAGE_SANDBOX_PORT}),
      {auth_url} on N+1, the directory on N+2; --port 0 takes three free ports. --json prints one JSON
      line with the addresses first on stdout. --faults FILE starts in fault mode with the rules of FILE
      ({"rules": [...]}, see docs/local-sandbox.md). Stop with Ctrl+C (SIGINT) or SIGTERM. The PKI and keys
      made on the first start are kept in the data dir and reused; --fresh empties the data dir first
      (new PKI and keys, no TPPs, clients or consents: starter kits issued before stop working).
      --psu-absent-quota: what the four PSU-absent accesses a day count (default per-endpoint: per consent,
      account and endpoint; per-consent: per consent, whatever the endpoint). See docs/local-sandbox.md.
      --transport-certs: which client certificates mutual TLS accepts (default self-signed-allowed: the
      directory's CA-issued ones, and a self-signed one with the subject and key of an issued one;
      ca-issued: only the directory's CA-issued ones, as production).
      --tls-client-auth: an extension beyond the bank's spec, off by default: the token endpoint also takes
      tls_client_auth (RFC 8705) clients, and discovery and registration say so. See docs/local-sandbox.md.
      --store URL (or $OB_SANDBOX_STORE): where consents, payments, idempotency keys, PSU-absent counters,
      registration jtis and the clock offset live: embedded (default: the data dir's files, one process) or
      postgres://USER[:PASSWORD]@HOST[:PORT]/DB (shared by every instance on it; migrated at start). With
      PostgreSQL the PKI, the keys and the directory's TPPs live in the store too (one bank for every
      instance on it; the data dir gets only pki/ca-bundle.pem), and --fresh empties only the data dir.
      --bind ADDR: the address to listen on (default 127.0.0.1; any other makes the sandbox reachable from
      the network). --public-host NAME and --public-port N: the host and {base_url} port of every URL the
      sandbox writes (discovery, Links, JWKS URLs, SSAs, starter kits; {auth_url} N+1, the directory N+2),
      for a balancer or a port mapping in front; default 127.0.0.1 and the ports listened on.
      --admin-token-file FILE: the directory's /admin/* endpoints and POST /tpps (its answer holds private
      keys) need "Authorization: Bearer <token>", the first line of FILE (24 or more printable characters).
      With --bind other than loopback or a postgres:// store a token is always required: without this flag
      one is made on the first start, shown once, and kept only as its hash (shared through the store).
  ob-console sandbox migrate --store postgres://…
      Apply the PostgreSQL store's migrations the database lacks (also done at each start), then exit.
  ob-console sandbox --issue-tpp DIR [--data-dir D] [--org-name NAME] [--client-name NAME]
                     [--roles AISP,PISP] [--redirect-uri URI]... [--json]
      Onboard a TPP in the local directory (no server is started) and write its starter kit into DIR.
  ob-console sandbox report --client ID [--json] [--data-dir D | --directory URL [--ca FILE]]
      The conformance report of a client from the running sandbox: every rule checked on its AIS and PIS
      requests, passed and failed, with the failed requests. Exit 0: every rule passed; 1: a rule failed;
      2: bad arguments; 3: no report (no sandbox found or reached, or nothing recorded for the client).
`

export const SANDBOX_REPORT_USAGE = `Usage:
  ob-console sandbox report --client ID [--json] [--data-dir D | --directory URL [--ca FILE]] [--admin-token-file FILE]
      The conformance report of client ID (or cert:<x5t#S256>) from the running local sandbox's directory
      (GET {directory_url}/admin/conformance?client_id=ID). The sandbox is the one running on --data-dir
      (default $OB_CONSOLE_SANDBOX_DIR or ~/.ob-console/local-sandbox), or the one at --directory URL, whose
      TLS certificate is checked against --ca FILE (default: the data dir's pki/ca-bundle.pem).
      --admin-token-file FILE: the sandbox's admin token (when it was started with one).
      --json prints the report as one JSON line. Exit 0: every rule passed; 1: at least one rule failed;
      2: bad arguments; 3: no report (no sandbox found or reached, or nothing recorded for the client).
`

export const JOURNEY_USAGE = `Usage:
  ob-console onboard --env local [--auth-method private_key_jwt|client_secret_basic] [--headless] [--data-dir D] [--json]
      Onboard a TPP in the local sandbox's directory and register a client (marked current); prints its
      client id. Without --data-dir the console's own data directory keeps it (printed), so later commands
      find it.
  ob-console ais --env local|NAME|FILE [--client ID] [--headless | --paste | --loopback-port N] [--no-open]
                 [--psu-absent | --psu-ip ADDR] [--permissions P,P...] [--consent-expiry DURATION] [--data-dir D] [--json]
      The whole AIS journey: token, consent, authorisation, ID token checks, code exchange, accounts,
      balances, every page of transactions, the other resources. The client is --client, else the current
      client of the environment; with --env local and none, a TPP is onboarded (with no --data-dir, in a
      fresh local sandbox removed at the end, on Ctrl+C and on any error). Without --headless the PSU logs
      in in a browser: the URL is printed (with a QR code on a terminal) and opened in the system browser
      (--no-open: not), and the return comes to the loopback listener (--loopback-port), or --paste reads
      the returned URL from standard input. With --json the URL comes first on stderr: {"authorisationUrl": …}.
      --psu-ip is the PSU's address for x-fapi-customer-ip-address (the local sandbox: 127.0.0.1).
      --consent-expiry DURATION (ISO 8601, e.g. P1D, PT23H) sets the consent's ExpirationDateTime that long
      after now on the bank's clock (the local sandbox's, moved or not); without it the consent has none.
  ob-console pis --env local|NAME|FILE [--client ID] [--headless | --paste | --loopback-port N] [--no-open] [--amount 10.00]
                 [--data-dir D] [--json]
      The whole PIS journey: signed consent, authorisation, funds confirmation, signed payment, status until final.
  --json prints one JSON object as the last stdout line (the step log goes to stderr).
  --max-body-mib N  reads response bodies up to N MiB (1 to 4096) whatever the environment's setting
      (default: the environment's "largest response body", else 50); a larger body stops the step.
  --har FILE writes every exchange of the run (onboarding and registration included) as a HAR 1.2 file,
      also when a step fails: tokens and codes masked (first 8 … last 8), private keys removed.
  --postman FILE writes the run as a Postman v2.1 collection whose changing values are {{variables}}
      ({{base_url}}, {{access_token}}, {{consent_id}}, {{account_id}}...); --postman-env FILE writes their
      values as a Postman environment (mode 0600: it holds the run's tokens, never a private key). Replay:
      newman run FILE -e ENVFILE --ssl-client-cert transport.pem --ssl-client-key transport.key [--ssl-extra-ca-certs CA].
      Output folders are checked before the run starts. With a kept data directory the run is kept for
      ob-console export (the last ${'20'}).
  Every answer of the bank is checked against the official OB v4.0 schemas and the bank's rules; each
      step's violations follow its line (in --json: "conformance"). --strict fails a run with any
      violation (exit 3).
`

export const JWT_USAGE = `Usage:
  ob-console jwt decode TOKEN|FILE|-  [--json]
      Decode a JWT or JWS: header, claims, times as dates.
  ob-console jwt verify TOKEN|FILE|-  (--key PEM|JWK|JWKS FILE | --jwks URL) [--ca CAFILE] [--insecure]
                        [--rules registration|request-object|id-token] [--expect name=value]... [--json]
      Verify the signature and check the claims against a rule set (expect: issuer, clientId, nonce,
      code, state, consentId, authUrl, redirectUri).
`

export const CERT_USAGE = `Usage:
  ob-console cert inspect FILE [--key KEYFILE] [--ca CAFILE]... [--json]
      Inspect every certificate in a PEM file: subject and issuer DN, serial, validity, SANs, key type,
      SHA-256 thumbprint, the exact tls_client_auth subject DN, Open Banking org and software ids.
      --key checks the private key matches the first certificate; --ca checks its chain to the given CAs.
`

export const COMMON_USAGE = `  Common flags: --env local|NAME|FILE.json (a saved environment, or an environment file, imported at each run),
    --client ID (default: the client marked current in that environment), --data-dir D (the console store;
    default: the user's console data directory), --json (one JSON object on stdout; the log goes to stderr),
    --strict (exit 3 when an answer of the bank breaks the OB v4.0 schemas or the bank's rules).
`

export const ENV_USAGE = `Usage:
  ob-console env list [--data-dir D] [--json]                      The saved environments.
  ob-console env import FILE.json [--data-dir D] [--json]          Import an environment file (see docs/console.md).
  ob-console env export NAME [--out FILE] [--client ID] [--data-dir D] [--json]
      An environment as a file to commit (addresses, TLS setting; add the paths of your key files).
  ob-console env import-postman FILE [--name NAME] [--tpp NAME] [--tls-verify off|system] [--data-dir D] [--json]
      A Postman environment (the sandbox's o3 download, or exported from Postman) as an environment: base_url,
      auth_url, the API paths; with --tpp, its client_id (and client_secret) as a client of that identity.
`

export const PREREQUISITES_USAGE = `Usage:
  ob-console prerequisites --env ENV [--tpp NAME] [--directory-jwks URL|FILE] [--json]
      The TPP prerequisites item by item, each pass/fail with its fix: organisation id format and existence
      in the directory (local sandbox: asked; the bank's: said to be unchecked), the SSA's signature and kid
      against the directory's JWKS (--directory-jwks for the bank's directory), the transport certificate's
      OU and CN against the SSA's org_id and software_id, redirect URIs within the SSA's, the key match,
      the chain to the CAs held, expiry with days left. Exit 1 when an item fails.
${COMMON_USAGE}`

export const CERT_GENERATE_USAGE = `Usage:
  ob-console cert generate --org-id ORG --software-id SW --out DIR [--role transport|signing|both] [--key-type RSA-2048|RSA-3072|EC-P256]
                           [--organisation O] [--country GB] [--self-signed] [--days N] [--kid KID] [--tpp NAME] [--data-dir D] [--json]
      Key pairs and CSRs with the Open Banking subject (C, O, OU = organisation id, CN = software id) for the
      directory; --self-signed adds a self-signed transport certificate for the bank's sandbox. The private
      keys go into the console's encrypted store (identity NAME); DIR gets only public parts: CSRs, the
      certificate, a JWKS. The signing key is RSA (PS256).
  ob-console cert attach --tpp NAME --cert FILE [--role transport|signing] [--kid KID] [--data-dir D] [--json]
      Pair the certificate the directory issued from a CSR with the key generated for it.
`

export const DCR_USAGE = `Usage:
  ob-console dcr register --env ENV [--auth-method private_key_jwt|client_secret_basic] [--redirect-uri URI]... [--scope S]
                          [--claim NAME=VALUE]... [--send-anyway] [--json]
      Register a client with the environment's TPP identity (DCR 3.2); it becomes the current client.
      Every claim is checked first, also against what discovery advertises; --send-anyway sends a registration
      that fails the checks, to see the bank's answer. --claim adds a claim as it is (e.g. sandbox_profile=strict-headless).
  ob-console dcr get    --env ENV [--client ID] [--json]      Read the client's registration from the bank (GET).
  ob-console dcr update --env ENV [--client ID] [--client-name N] [--redirect-uri URI]... [--scope S]
                        [--auth-method M] [--request-object-alg A] [--json]
      Change the claims given (the others keep their registered values) and send the update (PUT).
  ob-console dcr delete --env ENV [--client ID] [--json]      Delete the client at the bank (DELETE) and forget it.
  ob-console dcr list   --env ENV [--json]                    The clients registered in that environment.
${COMMON_USAGE}`

export const CONSENT_USAGE = `Usage:
  ob-console consent list   --env ENV [--client ID] [--json]   The consents this console created (newest first), with expiry and last SCA.
  ob-console consent get    --env ENV --consent ID [--json]    Read the consent from the bank (status, permissions, expiry).
  ob-console consent delete --env ENV --consent ID [--json]    Revoke an account access consent (DELETE).
${COMMON_USAGE}`

export const DISCOVERY_USAGE = `Usage:
  ob-console discovery --env ENV [--client ID] [--json]
      The bank's discovery document laid out (issuer, endpoints, algorithms, auth methods, grant and
      response types, scopes, claims) and checked against the environment and the client's registration
      (the current client when --client is not given); exit 1 when a check fails.
${COMMON_USAGE}`

export const TOKEN_USAGE = `Usage:
  ob-console token --env ENV [--client ID] [--scope accounts|payments|openid] [--reveal] [--json]
      A client-credentials access token of the client (grant_type=client_credentials at the token endpoint
      discovery names, with the client's auth method, over mutual TLS). The token is masked unless --reveal.
${COMMON_USAGE}`

export const O3_USAGE = `Usage:
  ob-console o3 auth-code-url --env ENV --consent ID [--client ID] [--scope accounts|payments] [--json]
      The sandbox's helper builds the authorisation URL of a consent awaiting authorisation (unsigned request
      object: clients with the permissive sandbox profile only).
  ob-console o3 postman-env --env ENV [--client ID] [--out FILE] [--json]
      The sandbox's Postman environment for the client (secrets masked); --out writes it to FILE.
${COMMON_USAGE}`

export const EXPORT_USAGE = `Usage:
  ob-console export (--flow ID | --last) [--postman FILE] [--postman-env FILE] [--har FILE] [--curl FILE]
                    [--data-dir D] [--json]
      The exports of an ais or pis run kept in the data directory (the last 20 runs of a kept --data-dir):
      a Postman collection with {{variables}} and the environment holding their values (mode 0600), the
      HAR, and one curl command per request carrying the environment's TLS choice (--cacert FILE for an
      exact CA, nothing for system trust, -k where verification is off). Tokens are masked in the HAR and
      the curl commands; private keys are never written.
`
