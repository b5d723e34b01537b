/**
 * Bad command lines, refused before any work: the real `bin/ob-console.js`, one row per mistake a developer
 * makes. Each row: the exit code, the code of the `--json` error object on stdout, a message naming the flag (or
 * the file) and a fix; and nothing written anywhere (home, data dirs, temp dir, working folder: a started
 * sandbox or an opened store would leave files there).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import forge from 'node-forge'
import { exportSPKI, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate, type GeneratedCertificate } from '../../../src-main/certificates/generate.ts'
import { REPO, runCli, type CliRun } from './support/run-cli.ts'

const work = mkdtempSync(join(tmpdir(), 'ob-bad-input-'))
const files = join(work, 'files')
const home = join(work, 'home')
const cwd = join(work, 'cwd')
const temp = join(work, 'tmp')
const env = {
  HOME: home,
  OB_CONSOLE_DATA_DIR: join(home, 'data'),
  OB_CONSOLE_SANDBOX_DIR: join(home, 'sandbox'),
  XDG_DATA_HOME: join(home, 'xdg'),
  TMPDIR: temp,
}
const f = (name: string) => join(files, name)

let cert: GeneratedCertificate
let token: string
let jwksServer: Server
let jwksUrl: string

beforeAll(async () => {
  for (const d of [files, home, cwd, temp]) mkdirSync(d, { recursive: true })
  cert = await createSelfSignedCertificate({
    subject: 'CN=bad input, O=Test',
    keyType: 'RSA-2048',
    subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }],
  })
  token = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'RS256', kid: 'k' }).sign(cert.keys.privateKey)
  writeFileSync(f('token.jwt'), token)
  writeFileSync(f('cert.pem'), cert.certPem)
  writeFileSync(f('cert.der'), Buffer.from(cert.cert.rawData))
  const p12 = forge.pkcs12.toPkcs12Asn1(
    forge.pki.privateKeyFromPem(cert.keyPem),
    [forge.pki.certificateFromPem(cert.certPem)],
    'secret',
    { algorithm: 'aes256' },
  )
  writeFileSync(f('cert.p12'), Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'))
  writeFileSync(f('random.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)))
  writeFileSync(f('text.txt'), 'not a certificate\n')
  const spki = await exportSPKI(cert.keys.publicKey)
  const lines = spki.split('\n')
  lines[2] = lines[2]!.slice(0, 20) + lines[2]!.slice(30)
  writeFileSync(f('corrupt-public.pem'), lines.join('\n'))
  writeFileSync(f('array-env.json'), '[{"format": "ob-console-environment/1"}]\n')
  writeFileSync(f('big.jwt'), 'eyJhbGciOiJub25lIn0.' + 'a'.repeat(10 * 1024 * 1024) + '.')
  writeFileSync(f('faults.json'), '{"rules": []}\n')
  mkdirSync(f('a-folder'))
  // An https server that answers an HTML page where a JWKS is expected.
  jwksServer = createServer({ cert: cert.certPem, key: cert.keyPem }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><html><body>Sign in</body></html>')
  })
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r))
  jwksUrl = `https://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`
}, 60_000)

afterAll(async () => {
  if (jwksServer) {
    jwksServer.closeAllConnections()
    await new Promise((r) => jwksServer.close(r))
  }
  rmSync(work, { recursive: true, force: true })
})

/** Every path under `dir` with its size: a run that writes anything changes it. */
function snapshot(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      const s = statSync(p)
      out.push(`${p} ${s.isDirectory() ? 'dir' : s.size}`)
      if (s.isDirectory()) walk(p)
    }
  }
  walk(dir)
  return out.sort()
}

async function run(args: string[]): Promise<CliRun> {
  return runCli(args, { env, cwd, timeoutMs: 30_000 })
}

/** A read-only place for --data-dir: /sys for root (whom permissions do not stop), else a folder without w. */
function readOnlyDir(): string {
  if (process.getuid?.() === 0) return '/sys/ob-console-test'
  const d = join(work, 'read-only')
  mkdirSync(d, { recursive: true, mode: 0o500 })
  return join(d, 'data')
}

interface Case {
  name: string
  args: () => string[]
  code: string
  exit: number
  /** The message on stderr: names the flag or the file, and says the problem. */
  says: RegExp
}

const CASES: Case[] = [
  // Misleading before: accepted, or refused with a cause that sent the developer elsewhere.
  {
    name: 'jwt verify --jwks http://…',
    args: () => ['jwt', 'verify', token, '--jwks', 'http://127.0.0.1:1/jwks'],
    code: 'USAGE',
    exit: 2,
    says: /--jwks must be an https URL, got http/,
  },
  {
    name: 'jwt verify --jwks answering an HTML page',
    args: () => ['jwt', 'verify', token, '--jwks', jwksUrl, '--ca', f('cert.pem')],
    code: 'KEY_INVALID',
    exit: 1,
    says: /is not a JWKS: the server answered text\/html/,
  },
  {
    name: 'jwt verify --key a corrupted public PEM',
    args: () => ['jwt', 'verify', token, '--key', f('corrupt-public.pem')],
    code: 'KEY_INVALID',
    exit: 1,
    says: /--key .*corrupt-public\.pem: the PEM public key cannot be read/,
  },
  {
    name: 'cert inspect on a binary file that is no certificate',
    args: () => ['cert', 'inspect', f('random.bin')],
    code: 'CERTIFICATE_INVALID',
    exit: 1,
    says: /binary, but neither a DER X\.509 certificate nor a PKCS#12/,
  },
  {
    name: 'cert inspect on a text file that is no certificate',
    args: () => ['cert', 'inspect', f('text.txt')],
    code: 'CERTIFICATE_INVALID',
    exit: 1,
    says: /text, but holds no PEM block/,
  },
  {
    name: 'cert inspect on a PKCS#12 file without its passphrase (no terminal)',
    args: () => ['cert', 'inspect', f('cert.p12')],
    code: 'PASSPHRASE_REQUIRED',
    exit: 1,
    says: /PKCS#12 file protected by a passphrase/,
  },
  {
    name: 'ais --har into a missing folder',
    args: () => ['ais', '--env', 'local', '--headless', '--har', join(cwd, 'no-such-folder', 'run.har')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /--har .*run\.har: the folder .*no-such-folder does not exist/,
  },
  {
    name: 'ais --har a folder',
    args: () => ['ais', '--env', 'local', '--headless', '--har', f('a-folder')],
    code: 'NOT_A_FILE',
    exit: 2,
    says: /--har .*a-folder is a folder, not a file/,
  },
  {
    name: 'ais --psu-ip not-an-ip',
    args: () => ['ais', '--env', 'local', '--headless', '--psu-ip', 'not-an-ip'],
    code: 'USAGE',
    exit: 2,
    says: /--psu-ip must be an IP address/,
  },
  {
    name: 'cert generate --days 0',
    args: () => [
      'cert',
      'generate',
      '--org-id',
      'O',
      '--software-id',
      'S',
      '--out',
      'out',
      '--self-signed',
      '--days',
      '0',
    ],
    code: 'USAGE',
    exit: 2,
    says: /--days must be a whole number of days from 1 to/,
  },
  {
    name: 'token --scope bogus',
    args: () => ['token', '--env', 'local', '--scope', 'bogus'],
    code: 'USAGE',
    exit: 2,
    says: /--scope: "bogus" is not a scope/,
  },
  {
    name: 'ais --data-dir ""',
    args: () => ['ais', '--env', 'local', '--headless', '--data-dir', ''],
    code: 'USAGE',
    exit: 2,
    says: /--data-dir is empty/,
  },
  {
    name: 'cert generate --out ""',
    args: () => ['cert', 'generate', '--org-id', 'O', '--software-id', 'S', '--out', ''],
    code: 'USAGE',
    exit: 2,
    says: /--out is empty/,
  },
  // Vague before: a parser's or the system's words.
  {
    name: 'serve --port -1 (a negative number)',
    args: () => ['serve', '--port', '-1'],
    code: 'USAGE',
    exit: 2,
    says: /--port must be a port number from 0 to 65535, got "-1"/,
  },
  {
    name: 'cert generate --days -3 (a negative number)',
    args: () => [
      'cert',
      'generate',
      '--org-id',
      'O',
      '--software-id',
      'S',
      '--out',
      'o',
      '--self-signed',
      '--days',
      '-3',
    ],
    code: 'USAGE',
    exit: 2,
    says: /--days must be a whole number of days from 1 to \d+, got "-3"/,
  },
  {
    name: 'ais --max-body-mib -1 (a negative number)',
    args: () => ['ais', '--env', 'local', '--headless', '--max-body-mib', '-1'],
    code: 'USAGE',
    exit: 2,
    says: /--max-body-mib must be a whole number of MiB from 1 to 4096, got "-1"/,
  },
  {
    name: 'sandbox --port -5 (a negative number)',
    args: () => ['sandbox', '--port', '-5'],
    code: 'USAGE',
    exit: 2,
    says: /--port must be a whole number from 0 to 65533/,
  },
  {
    name: 'ais --env given twice',
    args: () => ['ais', '--env', 'local', '--env', f('array-env.json'), '--headless'],
    code: 'USAGE',
    exit: 2,
    says: /--env is given 2 times/,
  },
  {
    name: 'ais --env a JSON array',
    args: () => ['ais', '--env', f('array-env.json'), '--headless'],
    code: 'INVALID_INPUT',
    exit: 1,
    says: /environment file .*array-env\.json is not valid[\s\S]*a JSON array, not an object/,
  },
  {
    name: 'ais --env a folder',
    args: () => ['ais', '--env', f('a-folder'), '--headless'],
    code: 'NOT_A_FILE',
    exit: 2,
    says: /--env .*a-folder is a folder, not a file/,
  },
  {
    name: 'ais --env a missing file',
    args: () => ['ais', '--env', f('missing.json'), '--headless'],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /--env .*missing\.json: the file does not exist/,
  },
  {
    name: 'cert inspect a missing file',
    args: () => ['cert', 'inspect', f('missing.pem')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /missing\.pem: the file does not exist/,
  },
  {
    name: 'jwt verify --key a missing file',
    args: () => ['jwt', 'verify', token, '--key', f('missing.pem')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /--key .*missing\.pem: the file does not exist/,
  },
  {
    name: 'sandbox --faults a missing file',
    args: () => ['sandbox', '--port', '0', '--faults', f('missing-faults.json')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /--faults .*missing-faults\.json: the file does not exist/,
  },
  {
    name: 'env import a missing file',
    args: () => ['env', 'import', f('missing-env.json')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /missing-env\.json: the file does not exist/,
  },
  {
    name: 'ais --data-dir a read-only place',
    args: () => ['ais', '--env', 'local', '--headless', '--data-dir', readOnlyDir()],
    code: 'NOT_WRITABLE',
    exit: 2,
    says: /--data-dir .*not writable/,
  },
  {
    name: 'ais --data-dir a file',
    args: () => ['ais', '--env', 'local', '--headless', '--data-dir', f('faults.json')],
    code: 'NOT_A_FILE',
    exit: 2,
    says: /--data-dir .*faults\.json is a file, not a directory/,
  },
  {
    name: 'jwt decode a 10 MB file',
    args: () => ['jwt', 'decode', f('big.jwt')],
    code: 'INVALID_INPUT',
    exit: 1,
    says: /big\.jwt is too large: 10\.0 MiB/,
  },
  // Refused only after onboarding or starting the sandbox before: now at once.
  {
    name: 'pis --amount abc',
    args: () => ['pis', '--env', 'local', '--headless', '--amount', 'abc'],
    code: 'USAGE',
    exit: 2,
    says: /--amount must be an amount more than zero/,
  },
  {
    name: 'ais --permissions ReadFoo',
    args: () => ['ais', '--env', 'local', '--headless', '--permissions', 'ReadFoo'],
    code: 'USAGE',
    exit: 2,
    says: /--permissions: "ReadFoo" is not a v4\.0 permission code/,
  },
  {
    name: 'ais --permissions breaking the v4.0 rules',
    args: () => ['ais', '--env', 'local', '--headless', '--permissions', 'ReadBalances'],
    code: 'USAGE',
    exit: 2,
    says: /--permissions ReadBalances: .*readaccountsbasic or readaccountsdetail/i,
  },
  {
    name: 'serve --port abc',
    args: () => ['serve', '--port', 'abc'],
    code: 'USAGE',
    exit: 2,
    says: /--port must be a port number from 0 to 65535, got "abc"/,
  },
  {
    name: 'serve --max-body-mib (a flag serve does not take)',
    args: () => ['serve', '--max-body-mib', '10'],
    code: 'USAGE',
    exit: 2,
    says: /Unknown option '--max-body-mib'/,
  },
  {
    name: 'ais --loopback-port 70000',
    args: () => ['ais', '--env', 'local', '--loopback-port', '70000'],
    code: 'USAGE',
    exit: 2,
    says: /--loopback-port must be a port number from 0 to 65535/,
  },
  {
    name: 'ais --amount (a flag of pis)',
    args: () => ['ais', '--env', 'local', '--headless', '--amount', '10.00'],
    code: 'USAGE',
    exit: 2,
    says: /--amount does not apply to ais/,
  },
  {
    name: 'ais --env with no value',
    args: () => ['ais', '--env'],
    code: 'USAGE',
    exit: 2,
    says: /--env needs a value/,
  },
  {
    name: 'sandbox report --directory http://…',
    args: () => ['sandbox', 'report', '--client', 'c', '--directory', 'http://127.0.0.1:8445'],
    code: 'USAGE',
    exit: 2,
    says: /--directory must be an https URL/,
  },
  {
    name: 'o3 postman-env --out into a missing folder',
    args: () => ['o3', 'postman-env', '--env', 'local', '--out', join(cwd, 'nope', 'env.json')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /--out .*env\.json: the folder .*nope does not exist/,
  },
  {
    name: 'export --postman into a missing folder',
    args: () => ['export', '--last', '--postman', join(cwd, 'nope', 'c.json')],
    code: 'FILE_NOT_FOUND',
    exit: 2,
    says: /--postman .*c\.json: the folder .*nope does not exist/,
  },
  {
    name: 'ais --postman-env a folder',
    args: () => ['ais', '--env', 'local', '--headless', '--postman-env', f('a-folder')],
    code: 'NOT_A_FILE',
    exit: 2,
    says: /--postman-env .*a-folder is a folder, not a file/,
  },
  {
    name: 'dcr register --auth-method bogus',
    args: () => ['dcr', 'register', '--env', 'local', '--auth-method', 'bogus'],
    code: 'USAGE',
    exit: 2,
    says: /--auth-method must be private_key_jwt, client_secret_basic or tls_client_auth, got "bogus"/,
  },
]

describe('bad input is refused before any work, named, with a fix', () => {
  it.each(CASES)('$name', async (c) => {
    const before = snapshot(work)
    const r = await run([...c.args(), '--json'])
    expect(r.code, r.stderr).toBe(c.exit)
    const error = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}').error
    expect(error?.code, r.stdout + r.stderr).toBe(c.code)
    expect(error.what).toBeTruthy()
    expect(error.fix).toBeTruthy()
    expect(r.stderr).toMatch(c.says)
    expect(r.stderr).toMatch(/fix: /)
    expect(r.stderr).not.toMatch(/\n\s+at [\w.<>]+ \(/)
    // Nothing started or written: no store, no sandbox, no throwaway folder, no output file.
    expect(snapshot(work)).toEqual(before)
  })
})

describe('the forms cert inspect reads by their content', () => {
  it.each([
    ['PEM', () => [f('cert.pem')]],
    ['DER', () => [f('cert.der')]],
    ['PKCS#12 with --passphrase', () => [f('cert.p12'), '--passphrase', 'secret']],
  ])('%s', async (_form, args) => {
    const r = await run(['cert', 'inspect', ...args(), '--json'])
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.certificates[0].subjectDn).toBe('CN=bad input,O=Test')
  })
})

const HELP: string[][] = [
  ['start'],
  ['serve'],
  ['sandbox'],
  ['sandbox', 'report'],
  ['onboard'],
  ['ais'],
  ['pis'],
  ['jwt', 'decode'],
  ['jwt', 'verify'],
  ['cert', 'inspect'],
  ['cert', 'generate'],
  ['cert', 'attach'],
  ['env', 'list'],
  ['env', 'import'],
  ['env', 'export'],
  ['env', 'import-postman'],
  ['prerequisites'],
  ['discovery'],
  ['dcr', 'register'],
  ['dcr', 'get'],
  ['dcr', 'update'],
  ['dcr', 'delete'],
  ['dcr', 'list'],
  ['consent', 'list'],
  ['consent', 'get'],
  ['consent', 'delete'],
  ['consent', 'get', '--consent', 'c1'],
  ['ais', '--env', 'local'],
  ['token'],
  ['o3', 'auth-code-url'],
  ['o3', 'postman-env'],
  ['export'],
]

describe('every command and subcommand answers --help and -h with its usage, and does nothing else', () => {
  // --help and -h in turn (each is the same flag of parseArgs: one run per command keeps the test short).
  it.each(HELP.map((command, i) => ({ command, flag: i % 2 ? '-h' : '--help' })))('$command $flag', async (c) => {
    const before = snapshot(work)
    const outBuilt = snapshotOut()
    const r = await run([...c.command, c.flag])
    expect(r.code, r.stderr).toBe(0)
    const words = c.command.slice(0, c.command.findIndex((a) => a.startsWith('-')) >>> 0)
    expect(r.stdout).toMatch(new RegExp(`^Usage:\\n {2}ob-console ${words.join(' ')}\\b`))
    expect(r.stderr).toBe('')
    expect(snapshot(work)).toEqual(before)
    expect(snapshotOut()).toEqual(outBuilt)
  })
})

/** The build output of the repository (`start` builds into it). */
function snapshotOut(): string[] {
  try {
    return snapshot(join(REPO, 'out', 'renderer')).map((l) => `${l} ${statSync(l.split(' ')[0]!).mtimeMs}`)
  } catch {
    return []
  }
}
