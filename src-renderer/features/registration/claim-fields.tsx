import { useEffect, useState } from 'react'
import type { RegistrationForm } from '../../../src-main/contract/api.ts'
import type { CheckResult } from '../../../src-main/contract/checks.ts'
import { SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'

/** The check of one claim in the engine's preview (checks are named after the claim). */
export function checkFor(checks: CheckResult[] | undefined, claim: string): CheckResult | undefined {
  return checks?.find((c) => c.name === claim) ?? checks?.find((c) => c.name.startsWith(`${claim} `))
}

function CheckMessage({ check }: { check: CheckResult }) {
  return (
    <span data-claim-check="fail">
      ✗ expected <code>{check.expected}</code>, got <code>{check.actual}</code>
      {check.hint ? `. ${check.hint}` : ''}
    </span>
  )
}

/** A claim's failing check as its field's message; nothing while it passes or is not checked. */
function failure(check: CheckResult | undefined) {
  return check && !check.pass ? <CheckMessage check={check} /> : undefined
}

/** Marks a checked claim's control valid or invalid. */
function checked(check: CheckResult | undefined) {
  return { 'aria-invalid': check ? !check.pass : undefined, className: check ? (check.pass ? 'valid' : 'invalid') : '' }
}

type Keys<T> = {
  [K in keyof RegistrationForm]-?: RegistrationForm[K] extends T | undefined ? K : never
}[keyof RegistrationForm]

/** How one claim of table 2.1 is typed: as text (with suggestions, or the engine's default as placeholder) or a list. */
type ClaimSpec = { hint: string } & (
  { text: Keys<string>; suggestions?: string[]; placeholder?: string; showsDefault?: true } | { list: Keys<string[]> }
)

const CLAIMS = {
  iss: { text: 'iss', showsDefault: true, hint: 'The software statement ID (software_id of the SSA).' },
  aud: { text: 'aud', showsDefault: true, hint: '{auth_url}: the authorisation server address, no trailing path.' },
  jti: { text: 'jti', placeholder: 'a fresh UUID per request', hint: 'Leave empty for a fresh UUID on every request.' },
  token_endpoint_auth_signing_alg: { text: 'tokenEndpointAuthSigningAlg', suggestions: ['PS256'], hint: 'PS256.' },
  grant_types: { list: 'grantTypes', hint: 'authorization_code and client_credentials, one per line.' },
  subject_type: { text: 'subjectType', suggestions: ['public'], hint: 'public.' },
  application_type: { text: 'applicationType', suggestions: ['web'], hint: 'web.' },
  redirect_uris: {
    list: 'redirectUris',
    hint: 'Every redirect URI the TPP will use, from the software statement; one per line.',
  },
  scope: { text: 'scope', hint: 'Space-separated: openid, accounts (AISP), payments (PISP).' },
  request_object_signing_alg: {
    text: 'requestObjectSigningAlg',
    suggestions: ['none', 'PS256'],
    hint: "none per the bank's table 2.1 (PS256 in production).",
  },
  response_types: { list: 'responseTypes', hint: 'code and code id_token, one per line.' },
  id_token_signed_response_alg: { text: 'idTokenSignedResponseAlg', suggestions: ['PS256'], hint: 'PS256.' },
} satisfies Record<string, ClaimSpec>

const AUTH_METHODS = ['private_key_jwt', 'client_secret_basic'].map((m) => ({ value: m, label: m }))

/** The claims after token_endpoint_auth_method, in table 2.1's order. */
const LATER: Array<keyof typeof CLAIMS> = [
  'token_endpoint_auth_signing_alg',
  'grant_types',
  'subject_type',
  'application_type',
  'redirect_uris',
  'scope',
  'request_object_signing_alg',
  'response_types',
  'id_token_signed_response_alg',
]

/** A list claim typed one item per line; the text stays as typed while it parses to the same list. */
function ListClaim({
  claim,
  check,
  hint,
  value,
  onChange,
}: {
  claim: string
  check: CheckResult | undefined
  hint: string
  value: string[] | undefined
  onChange: (v: string[] | undefined) => void
}) {
  const parse = (t: string) =>
    t
      .split('\n')
      .map((x) => x.trim())
      .filter(Boolean)
  const [text, setText] = useState((value ?? []).join('\n'))
  useEffect(() => {
    if (JSON.stringify(parse(text)) !== JSON.stringify(value ?? [])) setText((value ?? []).join('\n'))
    // Only when the store's value changes (not on every keystroke).
  }, [value])
  return (
    <TextAreaField
      label={claim}
      hint={hint}
      message={failure(check)}
      {...checked(check)}
      rows={Math.max(2, Math.min(5, (value?.length ?? 0) + 1))}
      value={text}
      spellCheck={false}
      onChange={(typed) => {
        setText(typed)
        const list = parse(typed)
        onChange(list.length ? list : undefined)
      }}
    />
  )
}

/** The claims of table 2.1 as fields, each with its check from the preview next to it. */
export function ClaimFields({
  form,
  checks,
  update,
  derived,
}: {
  form: RegistrationForm
  checks: CheckResult[] | undefined
  update: (p: Partial<RegistrationForm>) => void
  derived?: Record<string, unknown>
}) {
  const claimField = (claim: keyof typeof CLAIMS) => {
    const spec: ClaimSpec = CLAIMS[claim]
    const check = checkFor(checks, claim)
    if ('list' in spec)
      return (
        <ListClaim
          key={claim}
          claim={claim}
          check={check}
          hint={spec.hint}
          value={form[spec.list]}
          onChange={(v) => update({ [spec.list]: v })}
        />
      )
    // What the engine puts in a claim left empty, shown as the placeholder.
    const dflt =
      spec.showsDefault && typeof derived?.[claim] === 'string' ? `${derived[claim] as string} (default)` : undefined
    return (
      <TextField
        key={claim}
        label={claim}
        hint={spec.hint}
        message={failure(check)}
        {...checked(check)}
        value={form[spec.text] ?? ''}
        placeholder={spec.placeholder ?? dflt}
        onChange={(v) => update({ [spec.text]: v === '' ? undefined : v })}
        suggestions={spec.suggestions}
        spellCheck={false}
      />
    )
  }
  return (
    <div className="claims">
      {claimField('iss')}
      {claimField('aud')}
      <TextField
        label="exp (seconds after iat)"
        message={failure(checkFor(checks, 'exp'))}
        hint="The reference flow uses 3600."
        type="number"
        min={1}
        value={form.expiresInSeconds ?? ''}
        onChange={(s) => update({ expiresInSeconds: s === '' ? undefined : Number(s) })}
      />
      {claimField('jti')}
      <SelectField
        label="token_endpoint_auth_method"
        message={failure(checkFor(checks, 'token_endpoint_auth_method'))}
        hint="client_secret_basic is accepted by the sandbox only; production requires private_key_jwt."
        value={form.tokenEndpointAuthMethod ?? 'private_key_jwt'}
        options={AUTH_METHODS}
        onChange={(tokenEndpointAuthMethod) => update({ tokenEndpointAuthMethod })}
      />
      {LATER.map(claimField)}
    </div>
  )
}
