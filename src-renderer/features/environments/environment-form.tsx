import { useState } from 'react'
import type {
  EnvironmentDto,
  EnvironmentInput,
  EnvironmentKind,
  TokenEndpointAuthMethod,
} from '../../../src-main/contract/environments.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
import { useApp } from '../../store/store.ts'
import { AddressTable } from './address-table.tsx'
import { readText } from './read-file.ts'

const BLANK: EnvironmentInput = {
  name: '',
  kind: 'bank-sandbox',
  baseUrl: '',
  authUrl: '',
  apiPaths: {
    registration: '/dynamic-client-registration/v3.2/register',
    ais: '/open-banking/v4.0/aisp',
    pis: '/open-banking/v4.0/pisp',
    o3: '/o3/v1.0',
  },
  appScheme: '',
  tlsVerification: 'off',
  allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
}

const TLS_HINT: Record<EnvironmentInput['tlsVerification'], string> = {
  'exact-ca': 'Only the CA bundle below is trusted (the local sandbox).',
  off: "The server certificate is not verified (the bank's sandbox, as its spec says). Every exchange shows it.",
  system: "The operating system's trusted CAs (production).",
}

/** Creates or edits an environment; the main side validates and answers what to fix. */
export function EnvironmentForm({ initial, onDone }: { initial?: EnvironmentDto; onDone: () => void }) {
  const save = useApp((s) => s.saveEnvironment)
  const tpps = useApp((s) => s.tpps)
  const op = useApp((s) => s.ops['environments.save'])
  const [v, setV] = useState<EnvironmentInput>(() => {
    if (!initial) return BLANK
    const { builtIn: _b, ...rest } = initial
    return rest
  })
  const set = <K extends keyof EnvironmentInput>(k: K, value: EnvironmentInput[K]) => setV({ ...v, [k]: value })
  const setPath = (k: keyof EnvironmentInput['apiPaths'], value: string) =>
    setV({ ...v, apiPaths: { ...v.apiPaths, [k]: value || undefined } as EnvironmentInput['apiPaths'] })
  const setKind = (kind: EnvironmentKind) =>
    setV({
      ...v,
      kind,
      tlsVerification: kind === 'production' ? 'system' : kind === 'bank-sandbox' ? 'off' : v.tlsVerification,
      allowedAuthMethods: kind === 'production' ? ['private_key_jwt'] : v.allowedAuthMethods,
    })
  const toggleMethod = (m: TokenEndpointAuthMethod, on: boolean) =>
    set(
      'allowedAuthMethods',
      on ? [...new Set([...v.allowedAuthMethods, m])] : v.allowedAuthMethods.filter((x) => x !== m),
    )
  return (
    <form
      className="card"
      aria-label={initial ? `Edit ${initial.name}` : 'New environment'}
      onSubmit={async (e) => {
        e.preventDefault()
        if (await save(v)) onDone()
      }}
    >
      <h3>{initial ? `Edit ${initial.name}` : 'New environment'}</h3>
      <div className="grid-2">
        <Field label="Name">
          {(id) => <input id={id} value={v.name} onChange={(e) => set('name', e.target.value)} required />}
        </Field>
        <Field label="Kind">
          {(id) => (
            <select
              id={id}
              value={v.kind}
              onChange={(e) => setKind(e.target.value as EnvironmentKind)}
              disabled={initial?.builtIn}
            >
              <option value="bank-sandbox">Bank sandbox</option>
              <option value="production">Production</option>
              {initial?.kind === 'local-sandbox' ? <option value="local-sandbox">Local sandbox</option> : null}
            </select>
          )}
        </Field>
        <Field
          label="Base URL"
          hint="The resource server: registration, token endpoint and the APIs (mutual TLS), e.g. https://ob.sandbox.bank.example"
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              value={v.baseUrl}
              onChange={(e) => set('baseUrl', e.target.value)}
              placeholder="https://ob.bank.example"
            />
          )}
        </Field>
        <Field
          label="Auth URL"
          hint="The authorisation server and issuer; its discovery document is at /.well-known/openid-configuration"
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              value={v.authUrl}
              onChange={(e) => set('authUrl', e.target.value)}
              placeholder="https://auth.bank.example"
            />
          )}
        </Field>
        <Field label="Registration path">
          {(id) => (
            <input id={id} value={v.apiPaths.registration} onChange={(e) => setPath('registration', e.target.value)} />
          )}
        </Field>
        <Field label="AIS path">
          {(id) => <input id={id} value={v.apiPaths.ais} onChange={(e) => setPath('ais', e.target.value)} />}
        </Field>
        <Field label="PIS path">
          {(id) => <input id={id} value={v.apiPaths.pis} onChange={(e) => setPath('pis', e.target.value)} />}
        </Field>
        <Field label="/o3 helper path (sandbox only)">
          {(id) => (
            <input
              id={id}
              value={v.apiPaths.o3 ?? ''}
              onChange={(e) => setPath('o3', e.target.value)}
              placeholder="/o3/v1.0"
            />
          )}
        </Field>
        <Field label="Bank app scheme" hint="Production deeplink: <scheme>://consent-access-request">
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              value={v.appScheme}
              onChange={(e) => set('appScheme', e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Largest response body (MiB)"
          hint="A larger body stops the step (RESPONSE_TOO_LARGE); its first MiB is kept in the exchange. Empty: 50."
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              type="number"
              min={1}
              max={4096}
              step={1}
              placeholder="50"
              value={v.maxResponseBodyMiB ?? ''}
              onChange={(e) => set('maxResponseBodyMiB', e.target.value === '' ? undefined : Number(e.target.value))}
            />
          )}
        </Field>
        <Field label="TLS verification" hint={TLS_HINT[v.tlsVerification]}>
          {(id, d) => (
            <select
              id={id}
              aria-describedby={d}
              value={v.tlsVerification}
              onChange={(e) => set('tlsVerification', e.target.value as EnvironmentInput['tlsVerification'])}
            >
              <option value="exact-ca">Exact CA bundle</option>
              <option value="off">Off (bank sandbox)</option>
              <option value="system">System CAs</option>
            </select>
          )}
        </Field>
        <Field label="TPP identity used here">
          {(id) => (
            <select id={id} value={v.tppId ?? ''} onChange={(e) => set('tppId', e.target.value || undefined)}>
              <option value="">None</option>
              {tpps.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset>
          <legend>Token endpoint auth methods allowed</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={v.allowedAuthMethods.includes('private_key_jwt')}
              onChange={(e) => toggleMethod('private_key_jwt', e.target.checked)}
            />{' '}
            private_key_jwt
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              disabled={v.kind === 'production'}
              checked={v.allowedAuthMethods.includes('client_secret_basic')}
              onChange={(e) => toggleMethod('client_secret_basic', e.target.checked)}
            />{' '}
            client_secret_basic (sandbox only)
          </label>
        </fieldset>
      </div>
      <h4>Addresses this gives</h4>
      <AddressTable env={v} label="Addresses this environment gives" />
      {v.tlsVerification === 'exact-ca' ? (
        <Field label="CA bundle (PEM)" hint="Public certificates only.">
          {(id, d) => (
            <>
              <textarea
                id={id}
                aria-describedby={d}
                rows={4}
                value={v.caBundlePem ?? ''}
                onChange={(e) => set('caBundlePem', e.target.value)}
                spellCheck={false}
              />
              <input
                type="file"
                aria-label="Load the CA bundle from a file"
                accept=".pem,.crt,.cer"
                onChange={async (e) => {
                  const f = e.target.files?.[0]
                  if (f) set('caBundlePem', await readText(f))
                }}
              />
            </>
          )}
        </Field>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          Save environment
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorPanel error={op?.error} title="Not saved" />
    </form>
  )
}
