import { useState } from 'react'
import type {
  EnvironmentDto,
  EnvironmentInput,
  EnvironmentKind,
  TokenEndpointAuthMethod,
} from '../../../src-main/contract/environments.ts'
import { byName } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
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

const TLS_OPTIONS = optionsOf<EnvironmentInput['tlsVerification']>({
  'exact-ca': 'Exact CA bundle',
  off: 'Off (bank sandbox)',
  system: 'System CAs',
})

/** The API paths' fields: which path, its label, its placeholder. */
const API_PATHS: Array<[keyof EnvironmentInput['apiPaths'], string, string | undefined]> = [
  ['registration', 'Registration path', undefined],
  ['ais', 'AIS path', undefined],
  ['pis', 'PIS path', undefined],
  ['o3', '/o3 helper path (sandbox only)', '/o3/v1.0'],
]

const TLS_HINT: Record<EnvironmentInput['tlsVerification'], string> = {
  'exact-ca': 'Only the CA bundle below is trusted (the local sandbox).',
  off: "The server certificate is not verified (the bank's sandbox, as its spec says). Every exchange shows it.",
  system: "The operating system's trusted CAs (production).",
}

/** The environment being written, and its setters (the kind also sets the TLS verification and auth methods). */
function useEnvironmentDraft(initial: EnvironmentDto | undefined) {
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
  return { v, set, setPath, setKind, toggleMethod }
}

type EnvironmentDraft = ReturnType<typeof useEnvironmentDraft>

/** The name, the kind, the base and auth URLs, the API paths and the bank app's scheme. */
function AddressFields({ d, initial }: { d: EnvironmentDraft; initial: EnvironmentDto | undefined }) {
  const { v, set } = d
  return (
    <>
      <TextField label="Name" value={v.name} onChange={(name) => set('name', name)} required />
      <SelectField
        label="Kind"
        value={v.kind}
        options={[
          { value: 'bank-sandbox', label: 'Bank sandbox' },
          { value: 'production', label: 'Production' },
          ...(initial?.kind === 'local-sandbox' ? [{ value: 'local-sandbox' as const, label: 'Local sandbox' }] : []),
        ]}
        onChange={d.setKind}
        disabled={initial?.builtIn}
      />
      <TextField
        label="Base URL"
        hint="The resource server: registration, token endpoint and the APIs (mutual TLS), e.g. https://ob.sandbox.bank.example"
        value={v.baseUrl}
        onChange={(url) => set('baseUrl', url)}
        placeholder="https://ob.bank.example"
      />
      <TextField
        label="Auth URL"
        hint="The authorisation server and issuer; its discovery document is at /.well-known/openid-configuration"
        value={v.authUrl}
        onChange={(url) => set('authUrl', url)}
        placeholder="https://auth.bank.example"
      />
      {API_PATHS.map(([k, label, placeholder]) => (
        <TextField
          key={k}
          label={label}
          value={v.apiPaths[k] ?? ''}
          onChange={(path) => d.setPath(k, path)}
          placeholder={placeholder}
        />
      ))}
      <TextField
        label="Bank app scheme"
        hint="Production deeplink: <scheme>://consent-access-request"
        value={v.appScheme}
        onChange={(scheme) => set('appScheme', scheme)}
      />
    </>
  )
}

/** The response size limit, the TLS verification, the TPP identity and the token endpoint's auth methods. */
function ConnectionFields({ d }: { d: EnvironmentDraft }) {
  const tpps = useApp((s) => s.tpps)
  const { v, set } = d
  return (
    <>
      <TextField
        label="Largest response body (MiB)"
        hint="A larger body stops the step (RESPONSE_TOO_LARGE); its first MiB is kept in the exchange. Empty: 50."
        type="number"
        min={1}
        max={4096}
        step={1}
        placeholder="50"
        value={v.maxResponseBodyMiB ?? ''}
        onChange={(mib) => set('maxResponseBodyMiB', mib === '' ? undefined : Number(mib))}
      />
      <SelectField
        label="TLS verification"
        hint={TLS_HINT[v.tlsVerification]}
        value={v.tlsVerification}
        options={TLS_OPTIONS}
        onChange={(tls) => set('tlsVerification', tls)}
      />
      <SelectField
        label="TPP identity used here"
        value={v.tppId ?? ''}
        options={[{ value: '', label: 'None' }, ...byName(tpps)]}
        onChange={(id) => set('tppId', id || undefined)}
      />
      <fieldset>
        <legend>Token endpoint auth methods allowed</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={v.allowedAuthMethods.includes('private_key_jwt')}
            onChange={(e) => d.toggleMethod('private_key_jwt', e.target.checked)}
          />{' '}
          private_key_jwt
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            disabled={v.kind === 'production'}
            checked={v.allowedAuthMethods.includes('client_secret_basic')}
            onChange={(e) => d.toggleMethod('client_secret_basic', e.target.checked)}
          />{' '}
          client_secret_basic (sandbox only)
        </label>
      </fieldset>
    </>
  )
}

/** The CA bundle an exact-CA environment trusts: pasted, or loaded from a file. */
function CaBundleFields({ d }: { d: EnvironmentDraft }) {
  return (
    <>
      <TextAreaField
        label="CA bundle (PEM)"
        hint="Public certificates only."
        rows={4}
        value={d.v.caBundlePem ?? ''}
        onChange={(pem) => d.set('caBundlePem', pem)}
        spellCheck={false}
      />
      <input
        type="file"
        aria-label="Load the CA bundle from a file"
        accept=".pem,.crt,.cer"
        onChange={async (e) => {
          const f = e.target.files?.[0]
          if (f) d.set('caBundlePem', await readText(f))
        }}
      />
    </>
  )
}

/** Creates or edits an environment; the main side validates and answers what to fix. */
export function EnvironmentForm({ initial, onDone }: { initial?: EnvironmentDto; onDone: () => void }) {
  const save = useApp((s) => s.saveEnvironment)
  const op = useApp((s) => s.ops['environments.save'])
  const d = useEnvironmentDraft(initial)
  return (
    <form
      className="card"
      aria-label={initial ? `Edit ${initial.name}` : 'New environment'}
      onSubmit={async (e) => {
        e.preventDefault()
        if (await save(d.v)) onDone()
      }}
    >
      <h2>{initial ? `Edit ${initial.name}` : 'New environment'}</h2>
      <div className="grid-2">
        <AddressFields d={d} initial={initial} />
        <ConnectionFields d={d} />
      </div>
      <h3>Addresses this gives</h3>
      <AddressTable env={d.v} label="Addresses this environment gives" />
      {d.v.tlsVerification === 'exact-ca' ? <CaBundleFields d={d} /> : null}
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
