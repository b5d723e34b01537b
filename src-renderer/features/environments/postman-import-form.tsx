import { useRef, useState } from 'react'
import type { UiError } from '../../api/transport.ts'
import { byName } from '../../components/choice-field.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
import { FileField } from '../../components/file-field.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { useApp } from '../../store/store.ts'
import { readText } from './read-file.ts'

const PLACEHOLDER = '{"name": "…", "values": [{"key": "base_url", "value": "https://…"}, …]}'

/**
 * The sandbox's o3 download for one of its clients (those of an environment with an o3 path), put into the
 * text; `onError` hears whether the download failed.
 */
function O3Download({ onText, onError }: { onText: (text: string) => void; onError: (error?: UiError) => void }) {
  const environments = useApp((s) => s.environments)
  const allClients = useApp((s) => s.clients)
  const fetchO3 = useApp((s) => s.fetchPostmanEnvironment)
  const [o3Client, setO3Client] = useState('')
  const clients = allClients.filter((c) => !!environments.find((e) => e.id === c.environmentId)?.apiPaths.o3)
  /** The o3 download's address for a client (its environment's own, never a `{base_url}` placeholder). */
  const o3Url = (clientId: string) => {
    const env = environments.find(
      (e) => e.id === (clients.find((c) => c.clientId === clientId) ?? clients[0])?.environmentId,
    )
    return env ? `${env.baseUrl}${env.apiPaths.o3}/postman/environment` : 'the o3 Postman download'
  }
  if (!clients.length) return <div />
  return (
    <Field
      label="or the sandbox's o3 download for client"
      hint={`Downloads ${o3Url(o3Client)} for this client into the text below.`}
    >
      {(id, d) => (
        <div className="actions">
          <select id={id} aria-describedby={d} value={o3Client} onChange={(e) => setO3Client(e.target.value)}>
            <option value="">Choose a client…</option>
            {clients.map((c) => (
              <option key={c.clientId} value={c.clientId}>
                {c.clientId}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="secondary small"
            disabled={!o3Client}
            onClick={async () => {
              onError(undefined)
              const r = await fetchO3(o3Client)
              if (r.ok) onText(JSON.stringify(r.value, null, 2))
              else onError(r.error)
            }}
          >
            Download
          </button>
        </div>
      )}
    </Field>
  )
}

/** What the import makes: the environment's name, the identity of the file's client, the TLS verification. */
function useImportOptions() {
  const [name, setName] = useState('')
  const [tppId, setTppId] = useState('')
  const [tls, setTls] = useState<'off' | 'system'>('off')
  return { name, setName, tppId, setTppId, tls, setTls }
}

/** The import options' fields. */
function ImportOptions({ o }: { o: ReturnType<typeof useImportOptions> }) {
  const tpps = useApp((s) => s.tpps)
  return (
    <div className="grid-3">
      <TextField
        label="Environment name"
        hint="Default: the file's name. An environment of that name is updated."
        value={o.name}
        onChange={o.setName}
      />
      <SelectField
        label="Identity of the file's client"
        hint="The client is kept only for the identity it was registered with."
        value={o.tppId}
        options={[{ value: '', label: 'None: addresses only' }, ...byName(tpps)]}
        onChange={o.setTppId}
      />
      <SelectField
        label="Server certificate verification"
        value={o.tls}
        options={optionsOf({ off: "Off (the bank's sandbox)", system: 'System CAs' })}
        onChange={o.setTls}
      />
    </div>
  )
}

/** What the last import made, and its notes. */
function ImportedNote() {
  const result = useApp((s) => s.lastPostmanImport)
  if (!result) return null
  return (
    <div role="status" className="text-pass">
      Imported {result.environment.name}: {result.environment.baseUrl}, auth {result.environment.authUrl}
      {result.clientId ? `, client ${result.clientId} (current)` : ''}.
      {result.notes.map((n) => (
        <div key={n} className="muted small">
          {n}
        </div>
      ))}
    </div>
  )
}

/**
 * A Postman environment into an environment: a file (Postman's export), pasted text, or the sandbox's o3
 * download for one of its clients. The addresses and API paths become a bank-sandbox environment; with an
 * identity chosen, the file's client is kept for it and marked current.
 */
export function PostmanImportForm({ onDone }: { onDone: () => void }) {
  const importPostman = useApp((s) => s.importPostman)
  const op = useApp((s) => s.ops['environments.importPostman'])
  const [text, setText] = useState('')
  const o = useImportOptions()
  const [o3Error, setO3Error] = useState<UiError>()
  const [imported, setImported] = useState(false)
  const fileRef = useRef<HTMLInputElement>(null)
  return (
    <form
      className="card"
      aria-label="Import a Postman environment"
      onSubmit={async (e) => {
        e.preventDefault()
        setImported(false)
        const file = fileRef.current?.files?.[0]
        const json = file ? await readText(file) : text
        if (!json.trim()) return
        const done = await importPostman({
          json,
          tlsVerify: o.tls,
          ...(o.name.trim() ? { name: o.name.trim() } : {}),
          ...(o.tppId ? { tppId: o.tppId } : {}),
        })
        if (done) setImported(true)
      }}
    >
      <h2>Import a Postman environment</h2>
      <p className="muted small">
        Postman's export of an environment, or the sandbox's o3 download (secrets in it are masked; a client's secret in
        a file goes to the encrypted store).
      </p>
      <div className="grid-2">
        <FileField label="Postman environment file" ref={fileRef} accept=".json,application/json" />
        <O3Download onText={setText} onError={setO3Error} />
      </div>
      <ErrorPanel error={o3Error} title="The o3 download failed" />
      <TextAreaField
        label="or its text"
        rows={5}
        value={text}
        spellCheck={false}
        onChange={setText}
        placeholder={PLACEHOLDER}
      />
      <ImportOptions o={o} />
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          Import
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Close
        </button>
      </div>
      <ErrorPanel error={op?.error} title="Not imported" />
      {imported ? <ImportedNote /> : null}
    </form>
  )
}
