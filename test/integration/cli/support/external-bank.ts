/**
 * The local sandbox as a stand-in for the bank, reached as users reach a bank's sandbox: a TPP starter kit
 * (`ob-console sandbox --issue-tpp`), `ob-console sandbox --port 0 --json` started in a process of its own (with
 * `--faults FILE` when given rules), an environment file naming the kit's files, and a client registered with
 * `ob-console dcr register`. The CLI tests that need a bank of their own (faults, a server that stays up) share it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BIN, lastJson, REPO, runCli, type CliRun } from './run-cli.ts'

export interface ExternalBank {
  /** The addresses the sandbox printed. */
  started: { baseUrl: string; authUrl: string; directoryUrl: string; caBundlePath: string }
  /** The starter kit's folder (`transport.pem`, `transport.key`, `ca-bundle.pem`, …). */
  kit: string
  /** The kit's signing key id. */
  signingKid: string
  /** Writes an environment file for this bank (`name`, a TLS setting, optionally a client) and returns its path. */
  environmentFile(options: { name: string; verify?: 'exact-ca' | 'system' | 'off'; clientId?: string }): string
  /** Registers a strict headless client with `dcr register` under `env` (the flags naming the environment). */
  register(env: string[]): Promise<CliRun>
  stop(): Promise<void>
}

/** `ob-console` with the default data directory pointed where nothing may be written. */
export const runIn = (work: string) => (args: string[]) =>
  runCli(args, { env: { OB_CONSOLE_DATA_DIR: join(work, 'default-never-used') } })

/** Issues a kit into `<work>/kit` and starts the sandbox from `<work>/sandbox-data`. */
export async function startExternalBank(work: string, options: { faults?: object } = {}): Promise<ExternalBank> {
  const run = runIn(work)
  const sandboxData = join(work, 'sandbox-data')
  const kit = join(work, 'kit')
  const issued = await run(['sandbox', '--issue-tpp', kit, '--data-dir', sandboxData, '--json'])
  if (issued.code !== 0) throw new Error(`sandbox --issue-tpp failed (${issued.code}): ${issued.stderr}`)
  const { signingKid } = lastJson(issued) as { signingKid: string }
  const args = [BIN, 'sandbox', '--port', '0', '--json', '--data-dir', sandboxData]
  if (options.faults) {
    writeFileSync(join(work, 'faults.json'), JSON.stringify(options.faults))
    args.push('--faults', join(work, 'faults.json'))
  }
  const sandbox: ChildProcess = spawn(process.execPath, args, { cwd: REPO })
  let out = ''
  const started = await new Promise<ExternalBank['started']>((res, rej) => {
    sandbox.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      if (out.includes('\n')) res(JSON.parse(out.slice(0, out.indexOf('\n'))))
    })
    sandbox.on('exit', (code) => rej(new Error(`the sandbox exited (${code})`)))
  })
  return {
    started,
    kit,
    signingKid,
    environmentFile({ name, verify = 'exact-ca', clientId }) {
      const file = join(work, `bank-${name.replace(/\W+/g, '-').toLowerCase()}-${verify}.json`)
      writeFileSync(
        file,
        JSON.stringify({
          format: 'ob-console.environment/1',
          name,
          kind: 'bank-sandbox',
          baseUrl: started.baseUrl,
          authUrl: started.authUrl,
          tls: { verify, ...(verify === 'exact-ca' ? { caFile: 'kit/ca-bundle.pem' } : {}) },
          allowedAuthMethods: ['private_key_jwt'],
          identity: {
            name: `${name} app`,
            transport: { certificateFile: 'kit/transport.pem', keyFile: 'kit/transport.key' },
            signing: { keyFile: 'kit/signing.key', kid: signingKid },
            softwareStatementFile: 'kit/ssa.jwt',
            caFiles: ['kit/root-ca.pem', 'kit/issuing-ca.pem'],
            redirectUris: ['https://127.0.0.1:53682/callback'],
          },
          ...(clientId ? { client: { clientId, authMethod: 'private_key_jwt' } } : {}),
        }),
      )
      return file
    },
    register: (env) =>
      run([
        'dcr',
        'register',
        ...env,
        '--request-object-alg',
        'PS256',
        '--claim',
        'sandbox_profile=strict-headless',
        '--json',
      ]),
    async stop() {
      if (sandbox.exitCode !== null) return
      sandbox.kill('SIGTERM')
      await new Promise((r) => sandbox.once('exit', r))
    },
  }
}
