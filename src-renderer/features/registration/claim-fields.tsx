import { useEffect, useState } from 'react'
import type { RegistrationForm } from '../../../src-main/contract/api.ts'
import type { CheckResult } from '../../../src-main/contract/checks.ts'
import { Field } from '../../components/field.tsx'

/** The check of one claim in the engine's preview (checks are named after the claim). */
export function checkFor(checks: CheckResult[] | undefined, claim: string): CheckResult | undefined {
  return checks?.find((c) => c.name === claim) ?? checks?.find((c) => c.name.startsWith(`${claim} `))
}

function CheckMessage({ check }: { check: CheckResult | undefined }) {
  if (!check) return null
  if (check.pass)
    return (
      <span className="text-pass" data-claim-check="pass">
        ✓ {check.name}
      </span>
    )
  return (
    <span data-claim-check="fail">
      ✗ expected <code>{check.expected}</code>, got <code>{check.actual}</code>
      {check.hint ? `. ${check.hint}` : ''}
    </span>
  )
}

interface ClaimProps {
  claim: string
  checks: CheckResult[] | undefined
  hint?: string
}

/** A text claim. */
export function TextClaim({
  claim,
  checks,
  hint,
  value,
  onChange,
  list,
  placeholder,
}: ClaimProps & {
  value: string | undefined
  onChange: (v: string | undefined) => void
  list?: string[]
  placeholder?: string
}) {
  const check = checkFor(checks, claim)
  return (
    <Field label={claim} hint={hint} message={check && !check.pass ? <CheckMessage check={check} /> : undefined}>
      {(id, d) => (
        <>
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={check ? !check.pass : undefined}
            value={value ?? ''}
            placeholder={placeholder}
            onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
            list={list ? `${id}-list` : undefined}
            spellCheck={false}
            className={check ? (check.pass ? 'valid' : 'invalid') : ''}
          />
          {list ? (
            <datalist id={`${id}-list`}>
              {list.map((o) => (
                <option key={o} value={o} />
              ))}
            </datalist>
          ) : null}
        </>
      )}
    </Field>
  )
}

/** A list claim typed one item per line; the text stays as typed while it parses to the same list. */
export function ListClaim({
  claim,
  checks,
  hint,
  value,
  onChange,
}: ClaimProps & { value: string[] | undefined; onChange: (v: string[] | undefined) => void }) {
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
  const check = checkFor(checks, claim)
  return (
    <Field
      label={claim}
      hint={hint ?? 'One per line.'}
      message={check && !check.pass ? <CheckMessage check={check} /> : undefined}
    >
      {(id, d) => (
        <textarea
          id={id}
          aria-describedby={d}
          aria-invalid={check ? !check.pass : undefined}
          rows={Math.max(2, Math.min(5, (value?.length ?? 0) + 1))}
          value={text}
          spellCheck={false}
          className={check ? (check.pass ? 'valid' : 'invalid') : ''}
          onChange={(e) => {
            setText(e.target.value)
            const list = parse(e.target.value)
            onChange(list.length ? list : undefined)
          }}
        />
      )}
    </Field>
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
  /** What the engine puts in a claim left empty, shown as the placeholder. */
  const dflt = (claim: string) =>
    typeof derived?.[claim] === 'string' ? `${derived[claim] as string} (default)` : undefined
  return (
    <div className="claims">
      <TextClaim
        claim="iss"
        checks={checks}
        value={form.iss}
        onChange={(iss) => update({ iss })}
        placeholder={dflt('iss')}
        hint="The software statement ID (software_id of the SSA)."
      />
      <TextClaim
        claim="aud"
        checks={checks}
        value={form.aud}
        onChange={(aud) => update({ aud })}
        placeholder={dflt('aud')}
        hint="{auth_url}: the authorisation server address, no trailing path."
      />
      <Field
        label="exp (seconds after iat)"
        message={
          checkFor(checks, 'exp') && !checkFor(checks, 'exp')!.pass ? (
            <CheckMessage check={checkFor(checks, 'exp')} />
          ) : undefined
        }
        hint="The reference flow uses 3600."
      >
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            type="number"
            min={1}
            value={form.expiresInSeconds ?? ''}
            onChange={(e) => update({ expiresInSeconds: e.target.value === '' ? undefined : Number(e.target.value) })}
          />
        )}
      </Field>
      <TextClaim
        claim="jti"
        checks={checks}
        value={form.jti}
        onChange={(jti) => update({ jti })}
        placeholder="a fresh UUID per request"
        hint="Leave empty for a fresh UUID on every request."
      />
      <Field
        label="token_endpoint_auth_method"
        message={
          checkFor(checks, 'token_endpoint_auth_method')?.pass === false ? (
            <CheckMessage check={checkFor(checks, 'token_endpoint_auth_method')} />
          ) : undefined
        }
        hint="client_secret_basic is accepted by the sandbox only; production requires private_key_jwt."
      >
        {(id, d) => (
          <select
            id={id}
            aria-describedby={d}
            value={form.tokenEndpointAuthMethod ?? 'private_key_jwt'}
            onChange={(e) => update({ tokenEndpointAuthMethod: e.target.value })}
          >
            <option value="private_key_jwt">private_key_jwt</option>
            <option value="client_secret_basic">client_secret_basic</option>
          </select>
        )}
      </Field>
      <TextClaim
        claim="token_endpoint_auth_signing_alg"
        checks={checks}
        value={form.tokenEndpointAuthSigningAlg}
        onChange={(v) => update({ tokenEndpointAuthSigningAlg: v })}
        list={['PS256']}
        hint="PS256."
      />
      <ListClaim
        claim="grant_types"
        checks={checks}
        value={form.grantTypes}
        onChange={(v) => update({ grantTypes: v })}
        hint="authorization_code and client_credentials, one per line."
      />
      <TextClaim
        claim="subject_type"
        checks={checks}
        value={form.subjectType}
        onChange={(v) => update({ subjectType: v })}
        list={['public']}
        hint="public."
      />
      <TextClaim
        claim="application_type"
        checks={checks}
        value={form.applicationType}
        onChange={(v) => update({ applicationType: v })}
        list={['web']}
        hint="web."
      />
      <ListClaim
        claim="redirect_uris"
        checks={checks}
        value={form.redirectUris}
        onChange={(v) => update({ redirectUris: v })}
        hint="Every redirect URI the TPP will use, from the software statement; one per line."
      />
      <TextClaim
        claim="scope"
        checks={checks}
        value={form.scope}
        onChange={(v) => update({ scope: v })}
        hint="Space-separated: openid, accounts (AISP), payments (PISP)."
      />
      <TextClaim
        claim="request_object_signing_alg"
        checks={checks}
        value={form.requestObjectSigningAlg}
        onChange={(v) => update({ requestObjectSigningAlg: v })}
        list={['none', 'PS256']}
        hint="none per the bank's table 2.1 (PS256 in production)."
      />
      <ListClaim
        claim="response_types"
        checks={checks}
        value={form.responseTypes}
        onChange={(v) => update({ responseTypes: v })}
        hint="code and code id_token, one per line."
      />
      <TextClaim
        claim="id_token_signed_response_alg"
        checks={checks}
        value={form.idTokenSignedResponseAlg}
        onChange={(v) => update({ idTokenSignedResponseAlg: v })}
        list={['PS256']}
        hint="PS256."
      />
    </div>
  )
}
