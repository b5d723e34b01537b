import { formatChecks, reportError } from './cli-support.ts'
import { currentClient, output, parseCommand, unwrap, withEnvironment } from './cli-context.ts'
import { DISCOVERY_USAGE } from './usage.ts'
import { writeOut } from '../plumbing/terminal-out.ts'

export { DISCOVERY_USAGE }

/** `ob-console discovery`. */
export async function runDiscoveryCommand(argv: string[]): Promise<number> {
  let parsed
  try {
    parsed = parseCommand(argv, {}, 0)
  } catch (err) {
    return reportError(err, DISCOVERY_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(DISCOVERY_USAGE)
    return 0
  }
  return withEnvironment(v, DISCOVERY_USAGE, async (c) => {
    const clientId = v.client ?? currentClient(c.rt, c.env.id) ?? c.fileClientId
    const view = unwrap(
      await c.rt.handlers['discovery.view']({ environmentId: c.env.id, ...(clientId ? { clientId } : {}) }),
    )
    const { document: _document, ...summary } = view
    output(
      c,
      { ...summary, clientId },
      [
        `discovery ${view.url}`,
        `  issuer             ${view.issuer}`,
        ...Object.entries(view.endpoints).map(([k, u]) => `  ${k.padEnd(19)}${u}`),
        `  auth methods       ${view.tokenEndpointAuthMethods.join(', ')}`,
        `  grant types        ${view.grantTypes.join(', ')}`,
        `  response types     ${view.responseTypes.join(', ')}`,
        `  scopes             ${view.scopes.join(', ')}`,
        `  claims             ${view.claims.join(', ')}`,
        ...Object.entries(view.algorithms).map(([k, a]) => `  ${k}: ${a.join(', ')}`),
        `Checks${clientId ? ` (environment and client ${clientId})` : ' (environment)'}`,
        formatChecks(view.checks),
      ].join('\n'),
    )
    return view.checks.every((x) => x.pass) ? 0 : 1
  })
}
