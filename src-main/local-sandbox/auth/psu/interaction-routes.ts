import type { Context } from 'koa'
import type { Interaction } from 'oidc-provider'
import type Provider from 'oidc-provider'
import type { ConsentRecord, PisConsentRecord } from '../../consents/consent-store.ts'
import type { SandboxContext } from '../../context.ts'
import { isShareableThroughAis, type Psu, type SeedAccount } from '../../psus.ts'
import { readFormBody } from '../authorisation/authorisation-endpoint.ts'
import {
  approve,
  initiationDebtorAccount,
  initiationNamesDebtor,
  payableAccounts,
  reject,
} from '../authorisation/approval.ts'
import { intentIdOf } from '../authorisation/request-object.ts'
import type { ClientStore } from '../client-store.ts'
import { INTERACTION_PATH } from '../provider/provider-config.ts'
import {
  renderAisConsentPage,
  renderErrorPage,
  renderLoginPage,
  renderPisConsentPage,
  type AccountChoice,
} from './views.ts'

export interface InteractionDeps {
  sandbox: SandboxContext
  provider: Provider
  clients: ClientStore
}

/** Where the PSU's login is remembered during one interaction (in oidc-provider's interaction result). */
interface PsuLogin {
  sandboxPsu?: { psuId: string }
}

const ROUTE = new RegExp(`^${INTERACTION_PATH}/([A-Za-z0-9_-]+)(?:/(login|decision))?$`)

function html(ctx: Context, status: number, body: string): void {
  ctx.status = status
  ctx.type = 'html'
  ctx.set('Cache-Control', 'no-store')
  ctx.body = body
}

function accountLabel(a: SeedAccount): string {
  const tail = a.identification.slice(-4)
  return `${a.nickname} (${a.description}, ending ${tail})`
}

/** The bank's error page for a request it cannot act on (`invalid_request`). */
function invalidRequest(ctx: Context, status: number, description: string): void {
  html(ctx, status, renderErrorPage({ error: 'invalid_request', description }))
}

/** One PSU page's request, its interaction known good: the client, the consent, and the form posted (if any). */
interface Step {
  deps: InteractionDeps
  ctx: Context
  uid: string
  action: 'login' | 'decision' | undefined
  interaction: Interaction
  clientId: string
  clientName: string
  consent: ConsentRecord
  form: URLSearchParams
  /** Ends the interaction with `result` and sends the browser back to oidc-provider. */
  finish(result: Parameters<Provider['interactionResult']>[2]): Promise<void>
}

/**
 * The interaction in progress in this browser, its client and its consent; undefined when any is missing or
 * does not match the page's address (the error page answered).
 */
async function openInteraction(
  deps: InteractionDeps,
  ctx: Context,
  uid: string,
): Promise<{ interaction: Interaction; clientId: string; clientName: string; consent: ConsentRecord } | undefined> {
  let interaction: Interaction
  try {
    interaction = await deps.provider.interactionDetails(ctx.req, ctx.res)
  } catch {
    invalidRequest(
      ctx,
      400,
      'this login page has expired or was opened without its cookie (they last an hour); start the authorisation again from the application',
    )
    return undefined
  }
  if (interaction.uid !== uid) {
    invalidRequest(
      ctx,
      400,
      'the page address does not match the authorisation in progress in this browser; start the authorisation again',
    )
    return undefined
  }
  const clientId = String(interaction.params.client_id)
  const client = await deps.clients.metadata(clientId)
  let consent: ConsentRecord | undefined
  try {
    consent = await deps.sandbox.consents.get(intentIdOf({ claims: interaction.params.claims }))
  } catch {
    consent = undefined
  }
  if (!client || !consent || consent.clientId !== clientId) {
    invalidRequest(ctx, 400, 'the client or the consent of this authorisation no longer exists')
    return undefined
  }
  return { interaction, clientId, clientName: String(client.client_name ?? clientId), consent }
}

/** The login form posted: a known PSU's username and password are remembered in the interaction, else 401. */
async function logIn(step: Step): Promise<void> {
  const { deps, ctx, uid, form } = step
  const username = form.get('username') ?? ''
  const candidate = deps.sandbox.psus.byUsername(username)
  if (!candidate || candidate.password !== (form.get('password') ?? '')) {
    html(
      ctx,
      401,
      renderLoginPage({
        uid,
        clientName: step.clientName,
        consentKind: step.consent.kind,
        username,
        error:
          'The username or password is wrong. Try again (the test logins are listed in the sandbox documentation).',
      }),
    )
    return
  }
  await deps.provider.interactionResult(
    ctx.req,
    ctx.res,
    { sandboxPsu: { psuId: candidate.psuId } },
    { mergeWithLastSubmission: false },
  )
  ctx.status = 303
  ctx.redirect(`${INTERACTION_PATH}/${uid}`)
}

/**
 * The logged-in PSU's consent page (GET), or the decision posted on it: Approve with the accounts chosen (AIS)
 * or the debtor account (PIS), or the page again with the sentence saying what is missing.
 */
async function consentStep(step: Step, psu: Psu): Promise<void> {
  const { deps, ctx, uid, form, consent } = step
  const page = (error?: string) =>
    consentPage({ uid, clientName: step.clientName, psu, consent, error, selected: form.getAll('accounts') })
  if (!step.action) return html(ctx, 200, page())
  if (form.get('decision') !== 'approve') return html(ctx, 400, page('Choose Approve or Reject.'))
  const selection =
    consent.kind === 'ais' ? aisSelection(psu, form.getAll('accounts')) : pisSelection(psu, consent, form.get('debtor'))
  if (typeof selection === 'string') return html(ctx, 400, page(selection))
  await step.finish(
    await approve({
      provider: deps.provider,
      consents: deps.sandbox.consents,
      consent,
      clientId: step.clientId,
      psuId: psu.psuId,
      accountIds: selection,
      params: step.interaction.params,
    }),
  )
}

/** The access_denied result for a consent that is no longer awaiting authorisation. */
const noLongerAwaiting = (consent: ConsentRecord) => ({
  error: 'access_denied',
  error_description: `consent ${consent.consentId} is ${consent.status}, no longer awaiting authorisation`,
})

/**
 * The PSU pages on `{auth_url}/interaction/{uid}`: login, then the AIS account selection or the PIS
 * payment summary, then Approve or Reject. Returns false when the path is not one of them.
 */
export async function handleInteraction(deps: InteractionDeps, ctx: Context): Promise<boolean> {
  const match = ROUTE.exec(ctx.path)
  if (!match) return false
  const uid = match[1]!
  const action = match[2] as Step['action']
  const expected = action ? 'POST' : 'GET'
  if (ctx.method !== expected) {
    ctx.set('Allow', expected)
    invalidRequest(ctx, 405, `${ctx.method} is not allowed here; this page takes ${expected}`)
    return true
  }
  const opened = await openInteraction(deps, ctx, uid)
  if (!opened) return true
  const form = action ? await readFormBody(ctx) : new URLSearchParams()
  if (!form) return true
  const finish = async (result: Parameters<Provider['interactionResult']>[2]) => {
    const returnTo = await deps.provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false })
    ctx.status = 303
    ctx.redirect(returnTo)
  }
  const step: Step = { deps, ctx, uid, action, ...opened, form, finish }
  const { consent } = opened
  const psuId = (opened.interaction.result as PsuLogin | undefined)?.sandboxPsu?.psuId
  const psu = psuId ? deps.sandbox.psus.byId(psuId) : undefined

  if (action === 'decision' && form.get('decision') === 'reject') {
    if (consent.status === 'AWAU') await finish(await reject(deps.sandbox.consents, consent, psu?.psuId))
    else await finish(noLongerAwaiting(consent))
  } else if (action === 'login') await logIn(step)
  else if (!psu) {
    const error = action ? { error: 'Log in first.' } : {}
    html(
      ctx,
      action ? 401 : 200,
      renderLoginPage({ uid, clientName: opened.clientName, consentKind: consent.kind, ...error }),
    )
  } else if (consent.status !== 'AWAU') await finish(noLongerAwaiting(consent))
  else await consentStep(step, psu)
  return true
}

/** The accounts selected for AIS, or the sentence saying why the selection cannot be used. */
function aisSelection(psu: Psu, chosen: string[]): string[] | string {
  if (chosen.length === 0) return 'Select at least one account to share, or choose Reject.'
  for (const id of chosen) {
    const account = psu.accounts.find((a) => a.accountId === id)
    if (!account) return `Account ${id} is not one of your accounts.`
    if (!isShareableThroughAis(account))
      return `${account.nickname} cannot be shared through account information services: only the current account and the credit card can.`
  }
  return [...new Set(chosen)]
}

/** The debtor account chosen for PIS, or the sentence saying why it cannot be used. */
function pisSelection(psu: Psu, consent: PisConsentRecord, debtor: string | null): string[] | string {
  const fixed = initiationDebtorAccount(consent, psu)
  const allowed = fixed ? [fixed] : payableAccounts(psu)
  const account = allowed.find((a) => a.accountId === debtor)
  if (!account) return 'Choose the account to pay from.'
  return [account.accountId]
}

function consentPage(input: {
  uid: string
  clientName: string
  psu: Psu
  consent: ConsentRecord
  error?: string
  selected: string[]
}): string {
  const { psu, consent } = input
  if (consent.kind === 'ais') {
    const accounts: AccountChoice[] = psu.accounts.map((a) => ({
      accountId: a.accountId,
      label: accountLabel(a),
      shareable: isShareableThroughAis(a),
      ...(input.selected.length ? { checked: input.selected.includes(a.accountId) } : {}),
    }))
    return renderAisConsentPage({
      uid: input.uid,
      clientName: input.clientName,
      psuName: psu.name,
      consentId: consent.consentId,
      permissions: consent.permissions,
      expirationDateTime: consent.expirationDateTime,
      accounts,
      error: input.error,
    })
  }
  const initiation = (consent.data.Initiation ?? {}) as {
    InstructedAmount?: { Amount?: string; Currency?: string }
    CreditorAccount?: { Name?: string; Identification?: string }
    RemittanceInformation?: {
      Structured?: Array<{ CreditorReferenceInformation?: { Reference?: string } }>
      Unstructured?: string[]
    }
  }
  const fixed = initiationDebtorAccount(consent, psu)
  const reference =
    initiation.RemittanceInformation?.Structured?.[0]?.CreditorReferenceInformation?.Reference ??
    initiation.RemittanceInformation?.Unstructured?.[0]
  return renderPisConsentPage({
    uid: input.uid,
    clientName: input.clientName,
    psuName: psu.name,
    consentId: consent.consentId,
    amount: initiation.InstructedAmount?.Amount ?? '?',
    currency: initiation.InstructedAmount?.Currency ?? '',
    creditorName: initiation.CreditorAccount?.Name ?? 'unnamed creditor',
    creditorAccount: initiation.CreditorAccount?.Identification ?? '?',
    ...(reference ? { reference } : {}),
    ...(fixed ? { fixedDebtor: { accountId: fixed.accountId, label: accountLabel(fixed), shareable: true } } : {}),
    debtorChoices: payableAccounts(psu).map((a) => ({
      accountId: a.accountId,
      label: accountLabel(a),
      shareable: true,
    })),
    ...(!fixed && initiationNamesDebtor(consent)
      ? {
          debtorNote:
            'The payment names a debtor account that is not one of yours; choose one of your accounts to pay from.',
        }
      : {}),
    error: input.error,
  })
}
