/**
 * The PSU pages of the local sandbox: plain, accessible HTML (headings, labels, fieldsets), no
 * JavaScript, plain form posts. Every value is HTML-escaped.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
h1{font-size:1.5rem}fieldset{border:1px solid #888;padding:1rem;margin:1rem 0}legend{font-weight:600}
label{display:block;margin:.5rem 0}input[type=text],input[type=password]{display:block;padding:.4rem;width:100%;max-width:20rem}
button{padding:.5rem 1.2rem;margin-right:1rem;font-size:1rem}.error{border-left:4px solid #b00020;padding:.5rem 1rem;background:#fdecee}
.note{color:#444}dl{display:grid;grid-template-columns:max-content auto;gap:.25rem 1rem}dt{font-weight:600}`

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - Local sandbox bank</title>
<style>${STYLE}</style>
</head>
<body>
<header><p>Local sandbox bank (test environment: no real accounts)</p></header>
<main>
${body}
</main>
</body>
</html>
`
}

function errorBlock(message?: string): string {
  return message ? `<div class="error" role="alert"><p>${escapeHtml(message)}</p></div>\n` : ''
}

export interface LoginPageInput {
  uid: string
  clientName: string
  consentKind: 'ais' | 'pis'
  error?: string
  username?: string
}

/** The PSU login page (username and password of a test PSU). */
export function renderLoginPage(input: LoginPageInput): string {
  const purpose = input.consentKind === 'ais' ? 'share account information with' : 'make a payment through'
  return page(
    'Log in',
    `<h1>Log in to your bank</h1>
<p>${escapeHtml(input.clientName)} asks you to ${purpose} it. Log in to review the request.</p>
${errorBlock(input.error)}<form method="post" action="/interaction/${escapeHtml(input.uid)}/login">
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" required value="${escapeHtml(input.username ?? '')}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<p><button type="submit">Log in</button></p>
</form>
<form method="post" action="/interaction/${escapeHtml(input.uid)}/decision">
<p><button type="submit" name="decision" value="reject">Cancel and return to ${escapeHtml(input.clientName)}</button></p>
</form>`,
  )
}

export interface AccountChoice {
  accountId: string
  label: string
  shareable: boolean
  checked?: boolean
}

export interface AisConsentPageInput {
  uid: string
  clientName: string
  psuName: string
  consentId: string
  permissions: string[]
  expirationDateTime?: string
  accounts: AccountChoice[]
  error?: string
}

/** The AIS consent page: which accounts to share, Approve or Reject. */
export function renderAisConsentPage(input: AisConsentPageInput): string {
  const boxes = input.accounts
    .map((a) =>
      a.shareable
        ? `<label><input type="checkbox" name="accounts" value="${escapeHtml(a.accountId)}"${a.checked === false ? '' : ' checked'}> ${escapeHtml(a.label)}</label>`
        : `<label><input type="checkbox" name="accounts" value="${escapeHtml(a.accountId)}" disabled aria-describedby="not-shareable-${escapeHtml(a.accountId)}"> ${escapeHtml(a.label)}</label>
<p class="note" id="not-shareable-${escapeHtml(a.accountId)}">This account cannot be shared through account information services: only the current account and the credit card can.</p>`,
    )
    .join('\n')
  return page(
    'Share account information',
    `<h1>Share account information with ${escapeHtml(input.clientName)}</h1>
<p>Logged in as ${escapeHtml(input.psuName)}. Consent ${escapeHtml(input.consentId)}.</p>
<dl><dt>Permissions</dt><dd>${escapeHtml(input.permissions.join(', '))}</dd>
<dt>Expires</dt><dd>${escapeHtml(input.expirationDateTime ?? 'no expiry date')}</dd></dl>
${errorBlock(input.error)}<form method="post" action="/interaction/${escapeHtml(input.uid)}/decision">
<fieldset>
<legend>Accounts to share</legend>
${boxes}
</fieldset>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="reject">Reject</button></p>
</form>`,
  )
}

export interface PisConsentPageInput {
  uid: string
  clientName: string
  psuName: string
  consentId: string
  amount: string
  currency: string
  creditorName: string
  creditorAccount: string
  reference?: string
  /** The debtor account fixed by the payment request, when it is the PSU's. */
  fixedDebtor?: AccountChoice
  /** Accounts the PSU may pay from, when the payment does not fix one. */
  debtorChoices: AccountChoice[]
  /** Why the payment's own debtor account is not offered (it is not the PSU's). */
  debtorNote?: string
  error?: string
}

/** The PIS consent page: the payment summary and the account to pay from, Approve or Reject. */
export function renderPisConsentPage(input: PisConsentPageInput): string {
  const from = input.fixedDebtor
    ? `<p>From: ${escapeHtml(input.fixedDebtor.label)}</p><input type="hidden" name="debtor" value="${escapeHtml(input.fixedDebtor.accountId)}">`
    : `${input.debtorNote ? `<p class="note">${escapeHtml(input.debtorNote)}</p>` : ''}${input.debtorChoices
        .map(
          (a, i) =>
            `<label><input type="radio" name="debtor" value="${escapeHtml(a.accountId)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.label)}</label>`,
        )
        .join('\n')}`
  return page(
    'Confirm payment',
    `<h1>Confirm a payment requested by ${escapeHtml(input.clientName)}</h1>
<p>Logged in as ${escapeHtml(input.psuName)}. Consent ${escapeHtml(input.consentId)}.</p>
<dl><dt>Amount</dt><dd>${escapeHtml(input.amount)} ${escapeHtml(input.currency)}</dd>
<dt>To</dt><dd>${escapeHtml(input.creditorName)} (${escapeHtml(input.creditorAccount)})</dd>
<dt>Reference</dt><dd>${escapeHtml(input.reference ?? 'none')}</dd></dl>
${errorBlock(input.error)}<form method="post" action="/interaction/${escapeHtml(input.uid)}/decision">
<fieldset>
<legend>Account to pay from</legend>
${from}
</fieldset>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="reject">Reject</button></p>
</form>`,
  )
}

/** An error page, for an authorisation request whose redirect URI cannot be trusted. */
export function renderErrorPage(input: { error: string; description?: string }): string {
  return page(
    'Request refused',
    `<h1>The authorisation request was refused</h1>
<p>The bank could not send you back to the application, because the request did not name a client and a redirect URI it registered.</p>
<dl><dt>error</dt><dd><code>${escapeHtml(input.error)}</code></dd>
<dt>error_description</dt><dd>${escapeHtml(input.description ?? 'none')}</dd></dl>`,
  )
}
