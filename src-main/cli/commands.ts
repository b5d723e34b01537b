import { setJsonErrors } from './cli-support.ts'
import { makeJourneyKeysAhead } from './journey-flags.ts'

/**
 * The commands `main` dispatches to once it has answered `help` and `--help` itself. Each command's modules are
 * loaded only when that command runs (`jwt` loads no sandbox, and so on). The built command line compiles this
 * module and all it imports into one CommonJS file, out/cli/commands.cjs (`scripts/build-cli.mjs`), whose
 * compiled code V8 keeps between runs (`plumbing/code-cache.ts`).
 */
export interface CommandsModule {
  runCommand(command: CommandName, rest: string[], argv: string[]): Promise<number>
}

/** The commands (`help` aside), each with its usage in `main.ts`. */
export type CommandName =
  | 'start'
  | 'serve'
  | 'sandbox'
  | 'onboard'
  | 'ais'
  | 'pis'
  | 'jwt'
  | 'cert'
  | 'env'
  | 'prerequisites'
  | 'discovery'
  | 'dcr'
  | 'consent'
  | 'token'
  | 'o3'
  | 'export'

/** Runs `command` with its arguments `rest`; `argv` is the whole command line. */
export async function runCommand(command: CommandName, rest: string[], argv: string[]): Promise<number> {
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
      makeJourneyKeysAhead(command, rest)
      return (await import('./journey-command.ts')).runJourneyCommand(command, rest)
  }
}
