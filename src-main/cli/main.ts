import { guardStdio, writeErr, writeOut } from '../plumbing/terminal-out.ts'
import { setJsonErrors } from './cli-support.ts'
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
  SERVE_USAGE,
  TOKEN_USAGE,
} from './usage.ts'

// Each command's modules are loaded only when that command runs: `help` loads none of them, `jwt` no
// sandbox, and so on (the start-up time of every command depends on it).
const USAGE = `ob-console: developer console and local sandbox for the bank's Open Banking interface

  ob-console start                 Build and open the console (desktop app; in the browser where no Electron runtime can be had)
${SERVE_USAGE.replace('Usage:\n', '')}${SANDBOX_USAGE.replace('Usage:\n', '')}${JOURNEY_USAGE.replace('Usage:\n', '')}${JWT_USAGE.replace('Usage:\n', '')}${CERT_USAGE.replace('Usage:\n', '')}${CERT_GENERATE_USAGE.replace('Usage:\n', '')}${ENV_USAGE.replace('Usage:\n', '')}${EXPORT_USAGE.replace('Usage:\n', '')}${[PREREQUISITES_USAGE, DISCOVERY_USAGE, DCR_USAGE, CONSENT_USAGE, TOKEN_USAGE, O3_USAGE].map((u) => u.replace('Usage:\n', '').replace(/ {2}Common flags:[\s\S]*$/, '')).join('')}  Common flags of prerequisites, discovery, dcr, consent, token, o3: --env local|NAME|FILE.json, --client ID, --data-dir D, --json.
  ob-console help                  This text.
`

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  // A closed pipe on stdout or stderr (the reader went away) must not end a command or a server.
  guardStdio()
  setJsonErrors(argv.includes('--json'))
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
