import type { ConsentRecordDto } from '../contract/consents.ts'
import { reportError, UsageError } from './cli-support.ts'
import { output, parseCommand, unwrap, withEnvironment, withRuntime } from './cli-context.ts'
import { CONSENT_USAGE } from './usage.ts'
import { writeOut } from '../plumbing/terminal-out.ts'

export { CONSENT_USAGE }

function consentText(c: ConsentRecordDto): string {
  return [
    `consent ${c.consentId} (${c.kind === 'ais' ? 'account access' : 'payment'}), client ${c.clientId}`,
    `  status             ${c.status ?? '?'}${c.checkedAt ? ` (read ${c.checkedAt})` : ''}`,
    ...(c.permissions ? [`  permissions        ${c.permissions.join(' ')}`] : []),
    `  expires            ${c.expirationDateTime ? `${c.expirationDateTime} (${c.daysToExpiry! < 0 ? 'EXPIRED' : `${c.daysToExpiry} days left`})` : 'no expiry given'}`,
    `  last SCA           ${c.lastScaAt ? `${c.lastScaAt} (90-day window until ${c.scaWindowEndsAt})` : 'never authorised through this console'}`,
    `  created            ${c.createdAt}`,
  ].join('\n')
}

/** `ob-console consent list|get|delete`. */
export async function runConsentCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  let parsed
  try {
    if (!sub || !['list', 'get', 'delete'].includes(sub))
      throw new UsageError(
        sub ? `unknown consent command "${sub}"` : 'consent needs a command: list, get or delete',
        'Give consent list, consent get or consent delete.',
      )
    parsed = parseCommand(rest, { consent: { type: 'string' } }, 0)
    if (sub !== 'list' && !parsed.values.consent)
      throw new UsageError(
        `consent ${sub} needs --consent ID`,
        'Give the consent id (ob-console consent list shows them).',
      )
  } catch (err) {
    return reportError(err, CONSENT_USAGE)
  }
  const v = parsed.values
  if (v.help) {
    writeOut(CONSENT_USAGE)
    return 0
  }
  if (sub === 'list') {
    // Listing asks no bank: the sandbox is not started for it.
    return withRuntime(v, CONSENT_USAGE, async (rt) => {
      const envId =
        v.env === 'local'
          ? 'local-sandbox'
          : v.env
            ? (rt.services.environments.list().find((e) => e.id === v.env || e.name === v.env)?.id ?? v.env)
            : undefined
      const consents = unwrap(
        await rt.handlers['consents.list']({
          ...(v.client ? { clientId: v.client } : {}),
          ...(envId ? { environmentId: envId } : {}),
        }),
      )
      output(
        { json: !!v.json },
        { consents },
        consents.map(consentText).join('\n\n') || 'no consent created through this console',
      )
      return 0
    })
  }
  return withEnvironment(v, CONSENT_USAGE, async (c) => {
    const h = c.rt.handlers
    if (sub === 'get') {
      const read = unwrap(await h['consents.get']({ consentId: v.consent! }))
      output(c, read, `${consentText(read.consent)}\n\n${JSON.stringify(read.data, null, 2)}`)
      return 0
    }
    const deleted = unwrap(await h['consents.delete']({ consentId: v.consent! }))
    output(c, deleted, `deleted (revoked) consent ${deleted.consent.consentId}`)
    return 0
  })
}
