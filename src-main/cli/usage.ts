// The usage text of every command, apart from the commands themselves: `ob-console help` prints it without
// loading a command's modules (the sandbox, the engine), which is what keeps it fast.
import { DEFAULT_SANDBOX_PORT } from '../local-sandbox/defaults.ts'

export const SERVE_USAGE = `Usage:
  ob-console serve [--port N] [--data-dir DIR] [--sandbox-port N] [--loopback-port N] [--no-sandbox] [--json]
      Serve the console on http://127.0.0.1 (a per-launch token in the printed URL), with the embedded
      local sandbox started. --json prints one JSON line first on stdout with "url".
`

export const SANDBOX_USAGE = `Usage:
  ob-console sandbox [--port N] [--data-dir DIR] [--fresh] [--json] [--tls-mode explain|handshake] [--clock-offset SECONDS]
                     [--faults FILE] [--psu-absent-quota per-endpoint|per-consent]
      Start the local sandbox of the bank on 127.0.0.1: {base_url} on port N (default ${DEFAULT_SANDBOX_PORT}),
      {auth_url} on N+1, the directory on N+2; --port 0 takes three free ports. --json prints one JSON
      line with the addresses first on stdout. --faults FILE starts in fault mode with the rules of FILE
      ({"rules": [...]}, see docs/local-sandbox.md). Stop with Ctrl+C (SIGINT) or SIGTERM. The PKI and keys
      made on the first start are kept in the data dir and reused; --fresh empties the data dir first
      (new PKI and keys, no TPPs, clients or consents: starter kits issued before stop working).
      --psu-absent-quota: what the four PSU-absent accesses a day count (default per-endpoint: per consent,
      account and endpoint; per-consent: per consent, whatever the endpoint). See docs/local-sandbox.md.
  ob-console sandbox --issue-tpp DIR [--data-dir D] [--org-name NAME] [--client-name NAME]
                     [--roles AISP,PISP] [--redirect-uri URI]... [--json]
      Onboard a TPP in the local directory (no server is started) and write its starter kit into DIR.
`

export const JOURNEY_USAGE = `Usage:
  ob-console onboard --env local [--auth-method private_key_jwt|client_secret_basic] [--headless] [--data-dir D] [--json]
      Onboard a TPP in the local sandbox's directory and register a client; prints its client id.
  (each of onboard, ais and pis also takes --har FILE)
  ob-console ais --env local|ENV [--client ID] [--headless] [--psu-absent] [--permissions P,P...] [--data-dir D] [--json]
      The whole AIS journey: token, consent, authorisation, ID token checks, code exchange, accounts,
      balances, every page of transactions, the other resources. With --env local and no --data-dir it runs
      against a fresh local sandbox. Without --headless the PSU logs in in a browser (the URL is printed).
  ob-console pis --env local|ENV [--client ID] [--headless] [--amount 10.00] [--data-dir D] [--json]
      The whole PIS journey: signed consent, authorisation, funds confirmation, signed payment, status until final.
  --json prints one JSON object as the last stdout line (the step log goes to stderr).
  --max-body-mib N  reads response bodies up to N MiB (1 to 4096) whatever the environment's setting
      (default: the environment's "largest response body", else 50); a larger body stops the step.
  --har FILE writes every exchange of the run (onboarding and registration included) as a HAR 1.2 file,
      also when a step fails: tokens and codes masked (first 8 … last 8), private keys removed.
`

export const JWT_USAGE = `Usage:
  ob-console jwt decode TOKEN|FILE|-  [--json]
      Decode a JWT or JWS: header, claims, times as dates.
  ob-console jwt verify TOKEN|FILE|-  (--key PEM_OR_JWK_FILE | --jwks URL) [--ca CAFILE] [--insecure]
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
