import { CERT_USAGE, runCertCommand } from './cert-command.ts'
import { JOURNEY_USAGE, runJourneyCommand } from './journey-command.ts'
import { JWT_USAGE, runJwtCommand } from './jwt-command.ts'
import { runSandboxCommand, SANDBOX_USAGE } from './sandbox-command.ts'
import { runServeCommand, SERVE_USAGE } from './serve-command.ts'
import { runStartCommand } from './start-command.ts'

const USAGE = `ob-console: developer console and local sandbox for the bank's Open Banking interface

  ob-console start                 Build and open the console (desktop app; in the browser where no Electron runtime can be had)
${SERVE_USAGE.replace('Usage:\n', '')}${SANDBOX_USAGE.replace('Usage:\n', '')}${JOURNEY_USAGE.replace('Usage:\n', '')}${JWT_USAGE.replace('Usage:\n', '')}${CERT_USAGE.replace('Usage:\n', '')}  ob-console help                  This text.
`

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'sandbox':
      return runSandboxCommand(rest)
    case 'start':
      return runStartCommand(rest)
    case 'serve':
      return runServeCommand(rest)
    case 'cert':
      return runCertCommand(rest)
    case 'jwt':
      return runJwtCommand(rest)
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
