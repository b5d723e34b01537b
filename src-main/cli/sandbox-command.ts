import { parseArgs } from 'node:util'
import { startLocalSandbox } from '../local-sandbox/index.ts'

// PLACEHOLDER start path; the directory work adds --issue-tpp.
export async function runSandboxCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' } } })
  const sandbox = await startLocalSandbox({ port: values.port ? Number(values.port) : 8443, dataDir: values['data-dir'] })
  if (values.json) process.stdout.write(JSON.stringify({ baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl }) + '\n')
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  await sandbox.stop()
  return 0
}
