import { runCertCommand } from './cert-command.ts'
import { runJourneyCommand } from './journey-command.ts'
import { runSandboxCommand } from './sandbox-command.ts'

const USAGE = `ob-console: developer console and local sandbox for Open Banking TPPs

Usage:
  ob-console sandbox [--port N] [--data-dir DIR] [--json] [--tls-mode explain|handshake]
                     Start the local sandbox of the bank on 127.0.0.1.
  ob-console sandbox --issue-tpp DIR [--data-dir D] [--roles AISP,PISP] [--redirect-uri URI]...
                     Onboard a TPP in the local directory and write its starter kit into DIR.
  ob-console cert inspect FILE [--key KEYFILE] [--ca CAFILE]... [--json]
                     Inspect certificates; check a key matches and the chain to the CAs.
  ob-console start   Start the console (for now: the local sandbox).
  ob-console help    This text.
`

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  switch (command) {
    case 'sandbox':
    case 'start':
      return runSandboxCommand(rest)
    case 'cert':
      return runCertCommand(rest)
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
