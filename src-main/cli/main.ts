import { guardStdio, writeErr, writeOut } from '../plumbing/terminal-out.ts'
import type { CommandName, CommandsModule } from './commands.ts'
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

// The commands' modules (commands.ts and what it imports) are loaded only when a command runs: `help` and
// every `--help` load none of them (the start-up time of every command depends on it).
const USAGE = `ob-console: developer console and local sandbox for the bank's Open Banking interface

  ob-console start                 Build and open the console (desktop app; in the browser where no Electron runtime can be had)
${SERVE_USAGE.replace('Usage:\n', '')}${SANDBOX_USAGE.replace('Usage:\n', '')}${JOURNEY_USAGE.replace('Usage:\n', '')}${JWT_USAGE.replace('Usage:\n', '')}${CERT_USAGE.replace('Usage:\n', '')}${CERT_GENERATE_USAGE.replace('Usage:\n', '')}${ENV_USAGE.replace('Usage:\n', '')}${EXPORT_USAGE.replace('Usage:\n', '')}${[PREREQUISITES_USAGE, DISCOVERY_USAGE, DCR_USAGE, CONSENT_USAGE, TOKEN_USAGE, O3_USAGE].map((u) => u.replace('Usage:\n', '').replace(/ {2}Common flags:[\s\S]*$/, '')).join('')}  Common flags of prerequisites, discovery, dcr, consent, token, o3: --env local|NAME|FILE.json, --client ID, --data-dir D, --json.
  ob-console help                  This text.
`

/** Each command's usage text. */
const USAGES: Record<CommandName, string> = {
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

const isCommand = (name: string): name is CommandName => Object.hasOwn(USAGES, name)

/**
 * The usage of a command, or of one subcommand (`cert generate`, `sandbox report`, `jwt verify`): the paragraphs
 * of the command's usage that describe it, with the command's notes that follow them.
 */
export function usageOf(command: string, sub: string | undefined): string | undefined {
  if (command === 'cert' && (sub === 'generate' || sub === 'attach')) return pick(CERT_GENERATE_USAGE, `cert ${sub}`)
  if (command === 'sandbox' && sub === 'report') return SANDBOX_REPORT_USAGE
  if (command === 'onboard' || command === 'ais' || command === 'pis') return pick(JOURNEY_USAGE, command, true)
  const usage = isCommand(command) ? USAGES[command] : undefined
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

/**
 * Loads the commands' module for `command` (and its first argument `sub`, which may name a subcommand): from
 * the sources, `import('./commands.ts')`; in the built command line, out/cli/commands.cjs through V8's code
 * cache of that command (`cli/built-main.ts`).
 */
export type LoadCommands = (command: string, sub: string | undefined) => Promise<CommandsModule>

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[], loadCommands: LoadCommands): Promise<number> {
  const [command, ...rest] = argv
  // A closed pipe on stdout or stderr (the reader went away) must not end a command or a server.
  guardStdio()
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    writeOut(USAGE)
    return 0
  }
  if (!isCommand(command)) {
    writeErr(`ob-console: unknown command "${command}".\n\n${USAGE}`)
    return 2
  }
  // Every command and subcommand answers --help with its usage, and does nothing else (no build, no sandbox).
  if (asksHelp(rest)) {
    writeOut(usageOf(command, rest[0]) ?? USAGE)
    return 0
  }
  return (await loadCommands(command, rest[0])).runCommand(command, rest, argv)
}
