import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseCertificates } from '../certificates/import-pem.ts'
import { GENERATED_KEY_TYPES, generateTppKeys, type GenerateKeysInput } from '../services/key-generation.ts'
import { reportError, UsageError } from './cli-support.ts'
import { choiceFlag, inputFile, intFlag, readInput, writableDir } from './flags.ts'
import { output, parseCommand, withRuntime } from './cli-context.ts'
import { CERT_GENERATE_USAGE } from './usage.ts'
import { writeOut } from '../plumbing/terminal-out.ts'

export { CERT_GENERATE_USAGE }

function identityId(
  rt: Parameters<Parameters<typeof withRuntime>[2]>[0],
  name: string | undefined,
): string | undefined {
  if (!name) return undefined
  return rt.services.tpps.list().find((t) => t.id === name || t.name === name)?.id
}

const OPTIONS = {
  'org-id': { type: 'string' },
  'software-id': { type: 'string' },
  out: { type: 'string' },
  role: { type: 'string' },
  'key-type': { type: 'string' },
  organisation: { type: 'string' },
  country: { type: 'string' },
  'self-signed': { type: 'boolean' },
  days: { type: 'string' },
  kid: { type: 'string' },
  tpp: { type: 'string' },
  cert: { type: 'string' },
} as const

type Values = ReturnType<typeof parseCommand<typeof OPTIONS>>['values']
type Runtime = Parameters<Parameters<typeof withRuntime>[2]>[0]

/** A flag of the other subcommand is refused, naming the subcommand it belongs to. */
function refuseFlagsOf(v: Values, sub: 'generate' | 'attach', flags: string[], what: string): void {
  const given = flags.find((f) => v[f as keyof typeof v] !== undefined)
  if (given) throw new UsageError(`--${given} does not apply to cert ${sub}`, `It is a flag of cert ${what}.`)
}

/** `cert attach`'s flags: the identity, the issued certificate's file, its role. */
function checkAttachFlags(v: Values): void {
  refuseFlagsOf(
    v,
    'attach',
    ['org-id', 'software-id', 'out', 'key-type', 'organisation', 'country', 'self-signed', 'days'],
    'generate',
  )
  if (!v.tpp || !v.cert)
    throw new UsageError(
      'cert attach needs --tpp NAME and --cert FILE',
      'Give the identity and the issued certificate.',
    )
  if (v.role) choiceFlag('role', v.role, ['transport', 'signing'])
  inputFile('cert', v.cert)
}

/** `cert generate`'s flags: the ids, the folder, the roles and key type; answers --days when given. */
function checkGenerateFlags(v: Values): number | undefined {
  refuseFlagsOf(v, 'generate', ['cert'], 'attach')
  if (!v['org-id'] || !v['software-id'] || !v.out)
    throw new UsageError(
      'cert generate needs --org-id, --software-id and --out DIR',
      'Give your organisation id and software id (from the directory) and the folder for the public parts.',
    )
  if (v.role) choiceFlag('role', v.role, ['transport', 'signing', 'both'])
  if (v['key-type']) choiceFlag('key-type', v['key-type'], GENERATED_KEY_TYPES)
  // A certificate valid for less than a day would expire before anyone could use it.
  const days = v.days !== undefined ? intFlag('days', v.days, 1, 9999, 'a whole number of days') : undefined
  if (v.days !== undefined && !v['self-signed'])
    throw new UsageError(
      '--days applies with --self-signed only',
      "Add --self-signed, or leave --days out: the directory sets an issued certificate's validity.",
    )
  writableDir('out', v.out)
  return days
}

/** `cert attach`: the issued certificate joined to the identity's transport or signing key. */
async function attach(rt: Runtime, v: Values): Promise<number> {
  const tppId = identityId(rt, v.tpp)
  if (!tppId) throw new UsageError(`no TPP identity "${v.tpp}" in ${rt.dataDir}`)
  const certificatePem = parseCertificates(readInput(v.cert!, 'cert'), v.cert!)[0]!.toString('pem')
  const dto = await rt.services.tpps.attachCertificate(
    tppId,
    (v.role ?? 'transport') as 'transport' | 'signing',
    certificatePem,
    v.kid,
  )
  output(
    { json: !!v.json },
    { tppId, transport: dto.transport?.certificate, signing: dto.signing?.kid },
    `attached the certificate to the ${v.role ?? 'transport'} key of ${dto.name}`,
  )
  return 0
}

/** What `cert generate` asks the key generation for. */
function generateInput(rt: Runtime, v: Values, days: number | undefined): GenerateKeysInput {
  const role = v.role ?? 'both'
  return {
    orgId: v['org-id']!,
    softwareId: v['software-id']!,
    keyType: (v['key-type'] ?? 'RSA-2048') as GenerateKeysInput['keyType'],
    roles: role === 'both' ? ['transport', 'signing'] : [role as 'transport' | 'signing'],
    ...(identityId(rt, v.tpp) ? { tppId: identityId(rt, v.tpp)! } : v.tpp ? { tppName: v.tpp } : {}),
    ...(v.organisation ? { organisation: v.organisation } : {}),
    ...(v.country ? { country: v.country } : {}),
    ...(v['self-signed'] ? { selfSigned: true } : {}),
    ...(days !== undefined ? { validDays: days } : {}),
    ...(v.kid ? { kid: v.kid } : {}),
  }
}

/** The public parts written to the folder (CSRs, a self-signed certificate, the JWKS); answers their paths. */
function writePublicParts(out: string, generated: Awaited<ReturnType<typeof generateTppKeys>>): string[] {
  const dir = resolve(out)
  mkdirSync(dir, { recursive: true })
  const files: string[] = []
  const write = (name: string, content: string) => {
    writeFileSync(join(dir, name), content)
    files.push(join(dir, name))
  }
  if (generated.transport) {
    write('transport.csr.pem', generated.transport.csrPem)
    if (generated.transport.certificatePem) write('transport.cert.pem', generated.transport.certificatePem)
  }
  if (generated.signing) write('signing.csr.pem', generated.signing.csrPem)
  write('public.jwks.json', JSON.stringify(generated.jwks, null, 2) + '\n')
  return files
}

/** `cert generate`: new keys kept encrypted in the identity, the public parts written, what to do next said. */
async function generate(rt: Runtime, v: Values, days: number | undefined): Promise<number> {
  const generated = await generateTppKeys(rt.services.tpps, generateInput(rt, v, days))
  const files = writePublicParts(v.out!, generated)
  const name = rt.services.tpps.list().find((t) => t.id === generated.tppId)?.name ?? generated.tppId
  output(
    { json: !!v.json },
    {
      tppId: generated.tppId,
      tppName: name,
      subjectDn: generated.subjectDn,
      signingKid: generated.signing?.kid,
      transportWaitsForCertificate: generated.transport?.waitsForCertificate ?? false,
      files,
    },
    [
      `generated for ${generated.subjectDn} (identity "${name}" in ${rt.dataDir}; private keys encrypted there)`,
      ...files.map((f) => `  wrote ${f}`),
      ...(generated.signing
        ? [`  signing kid ${generated.signing.kid} (set the directory's kid with --kid when it gives one)`]
        : []),
      ...(generated.transport?.waitsForCertificate
        ? [
            `  upload transport.csr.pem to the directory, then: ob-console cert attach --tpp "${name}" --cert ISSUED.pem`,
          ]
        : []),
    ].join('\n'),
  )
  return 0
}

/** `ob-console cert generate|attach`. */
export async function runCertGenerateCommand(sub: 'generate' | 'attach', argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommand(argv, OPTIONS, 0)
  } catch (err) {
    return reportError(err, CERT_GENERATE_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(CERT_GENERATE_USAGE)
    return 0
  }
  let days: number | undefined
  try {
    if (sub === 'attach') checkAttachFlags(v)
    else days = checkGenerateFlags(v)
  } catch (err) {
    return reportError(err, CERT_GENERATE_USAGE)
  }
  return withRuntime(v, CERT_GENERATE_USAGE, (rt) => (sub === 'attach' ? attach(rt, v) : generate(rt, v, days)))
}
