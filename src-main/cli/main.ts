import { guardStdio, writeErr, writeOut } from '../plumbing/terminal-out.ts'
import { setJsonErrors } from './cli-support.ts'
import { makeJourneyKeysAhead } from './journey-flags.ts'
import {
  CERT_GENERATE_USAGE,
  CERT_USAGE,
  CONSENT_USAGE,
  DCR_USAGE,
  DISCOVERY_USAGE,
  ENV_USAGE,
  EXPORT_USAGE,
  JOURNEY_USAGE,
  JWT_USAGE,
  O3_USAGE,
  PREREQUISITES_USAGE,
  SANDBOX_USAGE,
  SANDBOX_REPORT_USAGE,
  SERVE_USAGE,
  START_USAGE,
  TOKEN_USAGE,
} from './usage.ts'

// Each command's modules are loaded only when that command runs: `help` loads none of them, `jwt` no
// sandbox, and so on (the start-up time of every command depends on it).
const USAGE = `ob-console: developer console and local sandbox for the bank's Open Banking interface

  ob-console start                 Build and open the console (desktop app; in the browser where no Electron runtime can be had)
${SERVE_USAGE.replace('Usage:\n', '')}${SANDBOX_USAGE.replace('Usage:\n', '')}${JOURNEY_USAGE.replace('Usage:\n', '')}${JWT_USAGE.replace('Usage:\n', '')}${CERT_USAGE.replace('Usage:\n', '')}${CERT_GENERATE_USAGE.replace('Usage:\n', '')}${ENV_USAGE.replace('Usage:\n', '')}${EXPORT_USAGE.replace('Usage:\n', '')}${[PREREQUISITES_USAGE, DISCOVERY_USAGE, DCR_USAGE, CONSENT_USAGE, TOKEN_USAGE, O3_USAGE].map((u) => u.replace('Usage:\n', '').replace(/ {2}Common flags:[\s\S]*$/, '')).join('')}  Common flags of prerequisites, discovery, dcr, consent, token, o3: --env local|NAME|FILE.json, --client ID, --data-dir D, --json.
  ob-console help                  This text.
`

/** Each command's usage text. */
const USAGES: Record<string, string> = {
  start: START_USAGE,
  serve: SERVE_USAGE,
  sandbox: SANDBOX_USAGE,
  onboard: JOURNEY_USAGE,
  ais: JOURNEY_USAGE,
  pis: JOURNEY_USAGE,
  jwt: JWT_USAGE,
  cert: CERT_USAGE,
  env: ENV_USAGE,
  prerequisites: PREREQUISITES_USAGE,
  discovery: DISCOVERY_USAGE,
  dcr: DCR_USAGE,
  consent: CONSENT_USAGE,
  token: TOKEN_USAGE,
  o3: O3_USAGE,
  export: EXPORT_USAGE,
}

/**
 * The usage of a command, or of one subcommand (`cert generate`, `sandbox report`, `jwt verify`): the paragraphs
 * of the command's usage that describe it, with the command's notes that follow them.
 */
export function usageOf(command: string, sub: string | undefined): string | undefined {
  if (command === 'cert' && (sub === 'generate' || sub === 'attach')) return pick(CERT_GENERATE_USAGE, `cert ${sub}`)
  if (command === 'sandbox' && sub === 'report') return SANDBOX_REPORT_USAGE
  if (command === 'onboard' || command === 'ais' || command === 'pis') return pick(JOURNEY_USAGE, command, true)
  const usage = USAGES[command]
  if (!usage || !sub || sub.startsWith('-')) return usage
  return pick(usage, `${command} ${sub}`)
}

/** The blocks of `usage` (a line at two spaces, and the deeper lines under it) about `ob-console NAME`, and its notes. */
function pick(usage: string, name: string, withNotes = false): string {
  const blocks: string[][] = []
  for (const line of usage.replace('Usage:\n', '').trimEnd().split('\n')) {
    if (/^ {2}\S/.test(line) || !blocks.length) blocks.push([line])
    else blocks.at(-1)!.push(line)
  }
  const kept = blocks.filter(([first]) =>
    first!.startsWith('  ob-console ')
      ? first!.startsWith(`  ob-console ${name} `) || first === `  ob-console ${name}`
      : withNotes || first!.startsWith('  Common flags'),
  )
  if (!kept.some(([first]) => first!.startsWith('  ob-console '))) return usage
  return `Usage:\n${kept.map((b) => b.join('\n')).join('\n')}\n`
}

/** `--help` or `-h` anywhere among a command's arguments (not after `--`). */
function asksHelp(rest: string[]): boolean {
  const end = rest.indexOf('--')
  return (end < 0 ? rest : rest.slice(0, end)).some((a) => a === '--help' || a === '-h')
}

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  // A closed pipe on stdout or stderr (the reader went away) must not end a command or a server.
  guardStdio()
  setJsonErrors(argv.includes('--json'))
  // Every command and subcommand answers --help with its usage, and does nothing else (no build, no sandbox).
  if (command && USAGES[command] && asksHelp(rest)) {
    writeOut(usageOf(command, rest[0]) ?? USAGE)
    return 0
  }
  switch (command) {
    case 'sandbox':
      return (await import('./sandbox-command.ts')).runSandboxCommand(rest)
    case 'start':
      return (await import('./start-command.ts')).runStartCommand(rest)
    case 'serve':
      return (await import('./serve-command.ts')).runServeCommand(rest)
    case 'cert':
      return rest[0] === 'generate' || rest[0] === 'attach'
        ? (await import('./cert-generate-command.ts')).runCertGenerateCommand(rest[0], rest.slice(1))
        : (await import('./cert-command.ts')).runCertCommand(rest)
    case 'jwt':
      return (await import('./jwt-command.ts')).runJwtCommand(rest)
    case 'dcr':
      return (await import('./dcr-command.ts')).runDcrCommand(rest)
    case 'consent':
      return (await import('./consent-command.ts')).runConsentCommand(rest)
    case 'env':
      return (await import('./env-command.ts')).runEnvCommand(rest)
    case 'prerequisites':
      return (await import('./prerequisites-command.ts')).runPrerequisitesCommand(rest)
    case 'discovery':
      return (await import('./discovery-command.ts')).runDiscoveryCommand(rest)
    case 'token':
      return (await import('./token-command.ts')).runTokenCommand(rest)
    case 'o3':
      return (await import('./o3-command.ts')).runO3Command(rest)
    case 'export':
      return (await import('./export-command.ts')).runExportCommand(rest)
    case 'onboard':
    case 'ais':
    case 'pis':
      makeJourneyKeysAhead(command, rest)
      return (await import('./journey-command.ts')).runJourneyCommand(command, rest)
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      writeOut(USAGE)
      return 0
    default:
      writeErr(`ob-console: unknown command "${command}".\n\n${USAGE}`)
      return 2
  }
}
