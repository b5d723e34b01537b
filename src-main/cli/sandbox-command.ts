import { resolve } from 'node:path'
import type { parseArgs } from 'node:util'
import {
  DEFAULT_SANDBOX_PORT,
  DIRECTORY_ISSUER,
  OnboardInputError,
  TRANSPORT_CERTIFICATES,
  dataDirLayout,
  defaultDataDir,
  existingKitFiles,
  isLoopback,
  migrateSandboxStore,
  openDirectoryOffline,
  resetDataDir,
  runningSandbox,
  validateOnboardInput,
  writeStarterKit,
  redactStoreUrl,
  startLocalSandbox,
  type RunningSandbox,
  type TransportCertificates,
} from '../local-sandbox/index.ts'
import { readAdminTokenFile } from './admin-token-flag.ts'
import {
  checkDataDir,
  networkFlags,
  parseClockOffset,
  parsePort,
  portProblem,
  readFaultsFile,
  storeSpec,
} from './sandbox-flags.ts'
import { SANDBOX_USAGE } from './usage.ts'
import { writeErr, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'
import { reportBadCommandLine, UsageError } from './cli-support.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'
import { parseFlags, writableDir } from './flags.ts'

export { SANDBOX_USAGE }

const OPTIONS = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  fresh: { type: 'boolean' },
  json: { type: 'boolean' },
  'tls-mode': { type: 'string' },
  'clock-offset': { type: 'string' },
  faults: { type: 'string' },
  'psu-absent-quota': { type: 'string' },
  'transport-certs': { type: 'string' },
  'tls-client-auth': { type: 'boolean' },
  store: { type: 'string' },
  'admin-token-file': { type: 'string' },
  'public-host': { type: 'string' },
  'public-port': { type: 'string' },
  bind: { type: 'string' },
  'issue-tpp': { type: 'string' },
  'org-name': { type: 'string' },
  'client-name': { type: 'string' },
  roles: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>['values']

function parse(argv: string[]): Values {
  return parseFlags(argv, OPTIONS).values
}

const SERVER_ONLY = [
  'port',
  'tls-mode',
  'clock-offset',
  'faults',
  'fresh',
  'psu-absent-quota',
  'transport-certs',
  'tls-client-auth',
  'store',
  'admin-token-file',
  'public-host',
  'public-port',
  'bind',
] as const
const ISSUE_ONLY = ['org-name', 'client-name', 'roles', 'redirect-uri'] as const

/** What the start banner says of the admin token: whose it is, or the one made now (shown this once). */
function adminLines(sandbox: RunningSandbox, file: string | undefined): string[] {
  if (!sandbox.adminTokenRequired) return []
  const needs = '/admin/* and POST /tpps need "Authorization: Bearer <token>"'
  if (file) return [`  admin          ${needs}, the token of ${file}`]
  if (sandbox.generatedAdminToken)
    return [
      `  admin          ${needs}; made now, shown this once (only its hash is kept):`,
      `                 ${sandbox.generatedAdminToken}`,
    ]
  return [
    `  admin          ${needs}: the token shown when it was made (bank document auth/admin-token.json), or start with --admin-token-file FILE`,
  ]
}

/** How long a stop signal lets requests in flight finish before every connection is closed, ms. */
const STOP_GRACE_MS = 10_000

/**
 * Runs `ob-console sandbox` (and, for now, `ob-console start`): starts the local sandbox and waits for
 * SIGINT or SIGTERM, or with `--issue-tpp DIR` onboards a TPP and writes its starter kit; `sandbox report`
 * reads a client's conformance report from a running sandbox (sandbox-report-command.ts). Returns the
 * exit code: 0 done, 1 failed (port in use, kit directory taken…), 2 bad arguments.
 */
export async function runSandboxCommand(argv: string[]): Promise<number> {
  if (argv[0] === 'report') return (await import('./sandbox-report-command.ts')).runSandboxReportCommand(argv.slice(1))
  if (argv[0] === 'migrate') return runMigrate(argv.slice(1))
  let values: Values
  try {
    values = parse(argv)
    if (values.help) {
      writeOut(SANDBOX_USAGE)
      return 0
    }
    if (values['issue-tpp'] !== undefined) {
      const misplaced = SERVER_ONLY.filter((o) => values[o] !== undefined)
      if (misplaced.length)
        throw new UsageError(`--${misplaced[0]} starts a sandbox; it cannot be combined with --issue-tpp`)
      return await issueTpp(values)
    }
    const misplaced = ISSUE_ONLY.filter((o) => values[o] !== undefined)
    if (misplaced.length) throw new UsageError(`--${misplaced[0]} only applies with --issue-tpp DIR`)
    return await serve(values)
  } catch (err) {
    if (reportBadCommandLine(err, 'ob-console sandbox', SANDBOX_USAGE, argv.includes('--json'))) return 2
    throw err
  }
}

/** `ob-console sandbox migrate --store URL`: applies the PostgreSQL store's migrations; 0 done, 1 failed, 2 bad arguments. */
async function runMigrate(argv: string[]): Promise<number> {
  let url: string
  try {
    const { values } = parseFlags(argv, { store: OPTIONS.store, help: OPTIONS.help })
    if (values.help) {
      writeOut(SANDBOX_USAGE)
      return 0
    }
    const spec = storeSpec(values)
    if (spec.kind !== 'postgres')
      throw new UsageError(
        'needs --store postgres://… (or OB_SANDBOX_STORE)',
        'Give --store postgres://USER@HOST:PORT/DB.',
      )
    url = spec.url
  } catch (err) {
    if (reportBadCommandLine(err, 'ob-console sandbox migrate', SANDBOX_USAGE, argv.includes('--json'))) return 2
    throw err
  }
  try {
    writeOut(`${await migrateSandboxStore(url)}\n`)
    return 0
  } catch (err) {
    writeErr(`ob-console sandbox migrate: ${one((err as Error).message)}\n`)
    return 1
  }
}

/** The serve flags read and checked, in the order their usage errors are reported. */
function serveFlags(values: Values) {
  const port = parsePort(values.port)
  const tlsMode = values['tls-mode'] ?? 'explain'
  if (tlsMode !== 'explain' && tlsMode !== 'handshake')
    throw new UsageError(`--tls-mode must be explain or handshake, got "${tlsMode}"`)
  const clockOffsetSeconds = parseClockOffset(values['clock-offset'])
  const faults = readFaultsFile(values.faults)
  const adminToken = readAdminTokenFile(values['admin-token-file'])
  const { publicHost, publicPort, bind } = networkFlags(values)
  const psuAbsentQuota = values['psu-absent-quota'] ?? 'per-endpoint'
  if (psuAbsentQuota !== 'per-endpoint' && psuAbsentQuota !== 'per-consent')
    throw new UsageError(`--psu-absent-quota must be per-endpoint or per-consent, got "${psuAbsentQuota}"`)
  const transportCertificates = (values['transport-certs'] ?? 'self-signed-allowed') as TransportCertificates
  if (!TRANSPORT_CERTIFICATES.includes(transportCertificates))
    throw new UsageError(
      `--transport-certs must be ${TRANSPORT_CERTIFICATES.join(' or ')}, got "${transportCertificates}"`,
    )
  const store = storeSpec(values)
  return {
    port,
    tlsMode,
    clockOffsetSeconds,
    faults,
    adminToken,
    publicHost,
    publicPort,
    bind,
    psuAbsentQuota,
    transportCertificates,
    store,
  } as const
}

type ServeFlags = ReturnType<typeof serveFlags>

/** The addresses of the started sandbox: a JSON line on stdout with --json, and the lines meant for people. */
function announce(sandbox: RunningSandbox, flags: ServeFlags, values: Values, human: (text: string) => void): void {
  const json = values.json === true
  const { tlsMode, clockOffsetSeconds, faults, bind, psuAbsentQuota, transportCertificates, store } = flags
  const discoveryUrl = `${sandbox.authUrl}/.well-known/openid-configuration`
  const onboardingUrl = `${sandbox.directoryUrl}/tpps`
  if (json) {
    const line = {
      baseUrl: sandbox.baseUrl,
      authUrl: sandbox.authUrl,
      directoryUrl: sandbox.directoryUrl,
      discoveryUrl,
      onboardingUrl,
      caBundlePath: sandbox.caBundlePath,
      dataDir: sandbox.dataDir,
      psus: sandbox.psus,
      tlsMode,
      clockOffsetSeconds,
      faults: faults.length,
      psuAbsentQuota,
      transportCertificates,
      tlsClientAuth: values['tls-client-auth'] === true,
      bind: bind ?? '127.0.0.1',
      pid: process.pid,
    }
    writeJsonOut(line)
  }
  const width = Math.max(...sandbox.psus.map((p) => p.username.length + p.password.length + 3), 20)
  human(
    [
      'OB Console local sandbox of the bank is running.',
      '',
      `  base_url       ${sandbox.baseUrl}   (resources, registration, token: mutual TLS, tls-mode ${tlsMode})`,
      `  auth_url       ${sandbox.authUrl}   (authorisation server; the issuer)`,
      `  discovery      ${discoveryUrl}`,
      `  directory_url  ${sandbox.directoryUrl}`,
      `  onboarding     POST ${onboardingUrl}   (or: ob-console sandbox --issue-tpp DIR --data-dir ${sandbox.dataDir})`,
      `  CA bundle      ${sandbox.caBundlePath}`,
      `  data dir       ${sandbox.dataDir}`,
      ...(bind !== undefined && !isLoopback(bind)
        ? [`  listening on   ${bind}: reachable from the network, not only from this machine`]
        : []),
      ...(store.kind === 'postgres' ? [`  store          ${redactStoreUrl(store.url)}`] : []),
      ...adminLines(sandbox, values['admin-token-file']),
      ...(clockOffsetSeconds ? [`  clock          ${clockOffsetSeconds} s ahead of wall time`] : []),
      ...(faults.length
        ? [
            `  fault mode     ${faults.length} rule(s) from ${values.faults}; see or change them at ${sandbox.directoryUrl}/admin/faults`,
          ]
        : []),
      `  profiles       PSU-absent quota ${psuAbsentQuota} (--psu-absent-quota); transport certificates ${transportCertificates} (--transport-certs)${values['tls-client-auth'] ? "; extension: tls_client_auth offered (--tls-client-auth, beyond the bank's spec)" : ''}`,
      '',
      'Test PSU logins (username / password):',
      ...sandbox.psus.map((p) => `  ${`${p.username} / ${p.password}`.padEnd(width)}  ${p.name}`),
      '',
      'Stop with Ctrl+C.',
      '',
    ].join('\n'),
  )
}

async function serve(values: Values): Promise<number> {
  const flags = serveFlags(values)
  const { port, tlsMode, clockOffsetSeconds, faults, adminToken, publicHost, publicPort, bind } = flags
  const { psuAbsentQuota, transportCertificates, store } = flags
  const dataDir = values['data-dir'] ?? defaultDataDir()
  checkDataDir(dataDir)
  if (values.fresh) {
    const running = runningSandbox(dataDirLayout(dataDir))
    if (running) {
      writeErr(
        `ob-console sandbox: --fresh would empty ${resolve(dataDir)}, but the sandbox with pid ${running.pid} runs on it; stop it first\n`,
      )
      return 1
    }
    resetDataDir(dataDir)
  }
  const json = values.json === true
  // With --json, stdout carries only the address line; everything meant for people goes to stderr.
  const human = (text: string) => (json ? writeErr : writeOut)(text)

  // Listen for the stop signals before anything is printed: a supervisor (or a test) may send one the
  // moment it reads the addresses. A signal during start-up stops the sandbox once it has started.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'))
    process.once('SIGTERM', () => resolve('SIGTERM'))
  })

  let sandbox: RunningSandbox
  try {
    sandbox = await startLocalSandbox({
      port,
      dataDir,
      tlsMode,
      clockOffsetMs: clockOffsetSeconds * 1000,
      faults,
      psuAbsentQuota,
      transportCertificates,
      tlsClientAuth: values['tls-client-auth'] === true,
      store,
      adminToken,
      // Reachable from the network, or shared by a team through a store: admin and onboarding are never left open.
      requireAdminToken: (bind !== undefined && !isLoopback(bind)) || store.kind === 'postgres',
      bind,
      publicHost,
      publicPort,
    })
  } catch (err) {
    const problem = portProblem(err as NodeJS.ErrnoException, port)
    writeErr(`ob-console sandbox: ${problem ?? `could not start the local sandbox: ${(err as Error).message}`}\n`)
    return 1
  }
  announce(sandbox, flags, values, human)

  const signal = await stopSignal
  writeErr(
    `ob-console sandbox: ${signal} received, stopping: /readyz answers 503, requests in flight may finish (up to ${STOP_GRACE_MS / 1000} s)\n`,
  )
  await sandbox.stop({ graceMs: STOP_GRACE_MS })
  // Nothing should keep the event loop alive after stop; if a library does, do not hang the terminal.
  setTimeout(() => process.exit(0), 3000).unref()
  return 0
}

async function issueTpp(values: Values): Promise<number> {
  const kitDir = values['issue-tpp']!
  if (kitDir.trim() === '') throw new UsageError('--issue-tpp needs the directory to write the starter kit into')
  writableDir('issue-tpp', kitDir)
  let input
  try {
    input = validateOnboardInput({
      orgName: values['org-name'],
      clientName: values['client-name'],
      roles: values.roles
        ?.split(',')
        .map((r) => r.trim().toUpperCase())
        .filter(Boolean),
      redirectUris: values['redirect-uri'],
    })
  } catch (err) {
    if (err instanceof OnboardInputError)
      throw new UsageError(err.message.replace(/^roles\b/, '--roles').replace(/^redirectUris\b/, '--redirect-uri'))
    throw err
  }
  const present = existingKitFiles(kitDir)
  if (present.length) {
    writeErr(
      `ob-console sandbox: ${kitDir} already holds a starter kit (${present.join(', ')}); keys are never overwritten, so give an empty or new directory\n`,
    )
    return 1
  }
  const dataDir = values['data-dir'] ?? defaultDataDir()
  checkDataDir(dataDir)
  let opened: Awaited<ReturnType<typeof openDirectoryOffline>>
  let written: ReturnType<typeof writeStarterKit>
  try {
    opened = await openDirectoryOffline(dataDir)
    const kit = await opened.directory.onboard(input)
    written = writeStarterKit(kitDir, kit, {
      rootCaPem: opened.pki.rootCaPem,
      issuingCaPem: opened.pki.issuingCaPem,
      issuer: DIRECTORY_ISSUER,
      addresses: opened.addresses,
    })
  } catch (err) {
    writeErr(`ob-console sandbox: could not issue the starter kit: ${(err as Error).message}\n`)
    return 1
  }
  const { runningPid, layout } = opened
  const { manifest } = written
  if (values.json) writeJsonOut({ dir: written.dir, ...manifest })
  ;(values.json ? writeErr : writeOut)(
    [
      `Onboarded ${manifest.clientName} in the local directory (data dir ${layout.root}).`,
      `  organisation   ${manifest.orgId} (${manifest.orgName})`,
      `  software id    ${manifest.softwareId}`,
      `  roles          ${manifest.roles.join(', ')}`,
      `  redirect URIs  ${manifest.redirectUris.join('\n                 ')}`,
      `  signing kid    ${manifest.signingKid}`,
      `  JWKS endpoint  ${manifest.jwksEndpoint}`,
      `  transport DN   ${manifest.transportCertificate.subjectDn}`,
      runningPid
        ? `  The sandbox running on this data dir (pid ${runningPid}) accepts this TPP now.`
        : `  No sandbox runs on this data dir; addresses assume the default ports (${DEFAULT_SANDBOX_PORT}-${DEFAULT_SANDBOX_PORT + 2}). Start one with: ob-console sandbox --data-dir ${layout.root}`,
      `Starter kit written to ${written.dir}: ${Object.values(manifest.files).join(', ')}`,
      '  (transport.key and signing.key are private keys, readable by you only: keep them out of version control)',
      '',
    ].join('\n'),
  )
  return 0
}
