import { parseArgs } from 'node:util'
import { makeRsaKeyPairsAhead } from '../plumbing/rsa-key-pairs.ts'

/** The flags of `onboard|ais|pis`. A module of its own, light enough to read before the command's code loads. */
export const JOURNEY_OPTIONS = {
  env: { type: 'string' },
  client: { type: 'string' },
  headless: { type: 'boolean' },
  'psu-absent': { type: 'boolean' },
  permissions: { type: 'string' },
  amount: { type: 'string' },
  'auth-method': { type: 'string' },
  'data-dir': { type: 'string' },
  'loopback-port': { type: 'string' },
  'max-body-mib': { type: 'string' },
  paste: { type: 'boolean' },
  'no-open': { type: 'boolean' },
  'psu-ip': { type: 'string' },
  'consent-expiry': { type: 'string' },
  json: { type: 'boolean' },
  // The export flags (beside `--har`).
  har: { type: 'string' },
  postman: { type: 'string' },
  'postman-env': { type: 'string' },
  strict: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export type JourneyKind = 'onboard' | 'ais' | 'pis'

/**
 * Whether the journey onboards a new TPP in the local sandbox: `onboard` always; `ais` and `pis` on a fresh
 * store (no `--data-dir`, which could hold a current client) without `--client`.
 */
export function onboardsNewTpp(kind: JourneyKind, v: { env?: string; client?: string; 'data-dir'?: string }): boolean {
  return v.env === 'local' && v.client === undefined && (kind === 'onboard' || v['data-dir'] === undefined)
}

/** The journey's flags, or undefined when they do not parse (the command refuses them with its usage). */
function parsed(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: JOURNEY_OPTIONS, strict: true, allowPositionals: false }).values
  } catch {
    return undefined
  }
}

/**
 * When the journey will onboard a TPP, starts making its two key pairs (the signing key, the transport
 * certificate's key) on libuv's threads now, while the command's modules load: the directory takes them
 * instead of making them then. Flags that do not parse are the command's to refuse: nothing is made.
 */
export function makeJourneyKeysAhead(kind: JourneyKind, argv: string[]): void {
  const v = parsed(argv)
  if (!v || v.help || !onboardsNewTpp(kind, v)) return
  makeRsaKeyPairsAhead('RSA-PSS')
  makeRsaKeyPairsAhead('RSASSA-PKCS1-v1_5')
}
