import { CERT_USAGE, runCertCommand } from './cert-command.ts'
import { JOURNEY_USAGE, runJourneyCommand } from './journey-command.ts'
import { JWT_USAGE, runJwtCommand } from './jwt-command.ts'
import { runSandboxCommand, SANDBOX_USAGE } from './sandbox-command.ts'
import { runServeCommand, SERVE_USAGE } from './serve-command.ts'
import { runStartCommand } from './start-command.ts'
import { ENV_USAGE, runEnvCommand } from './env-command.ts'
import { PREREQUISITES_USAGE, runPrerequisitesCommand } from './prerequisites-command.ts'
import { CERT_GENERATE_USAGE, runCertGenerateCommand } from './cert-generate-command.ts'
import { setJsonErrors } from './cli-support.ts'
import { DCR_USAGE, runDcrCommand } from './dcr-command.ts'
import { CONSENT_USAGE, runConsentCommand } from './consent-command.ts'
import { DISCOVERY_USAGE, runDiscoveryCommand } from './discovery-command.ts'
import { TOKEN_USAGE, runTokenCommand } from './token-command.ts'
import { O3_USAGE, runO3Command } from './o3-command.ts'

const USAGE = `ob-console: developer console and local sandbox for the bank's Open Banking interface

  ob-console start                 Build and open the console (desktop app; in the browser where no Electron runtime can be had)
${SERVE_USAGE.replace('Usage:\n', '')}${SANDBOX_USAGE.replace('Usage:\n', '')}${JOURNEY_USAGE.replace('Usage:\n', '')}${JWT_USAGE.replace('Usage:\n', '')}${CERT_USAGE.replace('Usage:\n', '')}${CERT_GENERATE_USAGE.replace('Usage:\n', '')}${ENV_USAGE.replace('Usage:\n', '')}${[PREREQUISITES_USAGE, DISCOVERY_USAGE, DCR_USAGE, CONSENT_USAGE, TOKEN_USAGE, O3_USAGE].map((u) => u.replace('Usage:\n', '').replace(/ {2}Common flags:[\s\S]*$/, '')).join('')}  Common flags of prerequisites, discovery, dcr, consent, token, o3: --env local|NAME|FILE.json, --client ID, --data-dir D, --json.
  ob-console help                  This text.
`

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  setJsonErrors(argv.includes('--json'))
  switch (command) {
    case 'sandbox':
      return runSandboxCommand(rest)
    case 'start':
      return runStartCommand(rest)
    case 'serve':
      return runServeCommand(rest)
    case 'cert':
      return rest[0] === 'generate' || rest[0] === 'attach' ? runCertGenerateCommand(rest[0], rest.slice(1)) : runCertCommand(rest)
    case 'jwt':
      return runJwtCommand(rest)
    case 'dcr':
      return runDcrCommand(rest)
    case 'consent':
      return runConsentCommand(rest)
    case 'env':
      return runEnvCommand(rest)
    case 'prerequisites':
      return runPrerequisitesCommand(rest)
    case 'discovery':
      return runDiscoveryCommand(rest)
    case 'token':
      return runTokenCommand(rest)
    case 'o3':
      return runO3Command(rest)
    case 'onboard':
    case 'ais':
    case 'pis':
      return runJourneyCommand(command, rest)
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE)
      return 0
    default:
      process.stderr.write(`ob-console: unknown command "${command}".\n\n${USAGE}`)
      return 2
  }
}
