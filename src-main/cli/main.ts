import { CERT_USAGE, JOURNEY_USAGE, JWT_USAGE, SANDBOX_USAGE, SERVE_USAGE } from './usage.ts'

// Each command's modules are loaded only when that command runs: `help` loads none of them, `jwt` no
// sandbox, and so on (the start-up time of every command depends on it).
const USAGE = `ob-console: developer console and local sandbox for the bank's Open Banking interface

  ob-console start                 Build and open the console (desktop app; in the browser where no Electron runtime can be had)
${SERVE_USAGE.replace('Usage:\n', '')}${SANDBOX_USAGE.replace('Usage:\n', '')}${JOURNEY_USAGE.replace('Usage:\n', '')}${JWT_USAGE.replace('Usage:\n', '')}${CERT_USAGE.replace('Usage:\n', '')}  ob-console help                  This text.
`

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'sandbox':
      return (await import('./sandbox-command.ts')).runSandboxCommand(rest)
    case 'start':
      return (await import('./start-command.ts')).runStartCommand(rest)
    case 'serve':
      return (await import('./serve-command.ts')).runServeCommand(rest)
    case 'cert':
      return (await import('./cert-command.ts')).runCertCommand(rest)
    case 'jwt':
      return (await import('./jwt-command.ts')).runJwtCommand(rest)
    case 'onboard':
    case 'ais':
    case 'pis':
      return (await import('./journey-command.ts')).runJourneyCommand(command, rest)
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
