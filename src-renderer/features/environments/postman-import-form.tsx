import { useRef, useState } from 'react'
import type { UiError } from '../../api/transport.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
import { useApp } from '../../store/store.ts'
import { readText } from './read-file.ts'

const PLACEHOLDER = '{"name": "…", "values": [{"key": "base_url", "value": "https://…"}, …]}'

/**
 * A Postman environment into an environment: a file (Postman's export), pasted text, or the sandbox's o3
 * download for one of its clients. The addresses and API paths become a bank-sandbox environment; with an
 * identity chosen, the file's client is kept for it and marked current.
 */
export function PostmanImportForm({ onDone }: { onDone: () => void }) {
  const tpps = useApp((s) => s.tpps)
  const environments = useApp((s) => s.environments)
  const allClients = useApp((s) => s.clients)
  const clients = allClients.filter((c) => !!environments.find((e) => e.id === c.environmentId)?.apiPaths.o3)
  const importPostman = useApp((s) => s.importPostman)
  const fetchO3 = useApp((s) => s.fetchPostmanEnvironment)
  const op = useApp((s) => s.ops['environments.importPostman'])
  const result = useApp((s) => s.lastPostmanImport)
  const [text, setText] = useState('')
  const [name, setName] = useState('')
  const [tppId, setTppId] = useState('')
  const [tls, setTls] = useState<'off' | 'system'>('off')
  const [o3Client, setO3Client] = useState('')
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
          tlsVerify: tls,
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(tppId ? { tppId } : {}),
        })
        if (done) setImported(true)
      }}
    >
      <h3>Import a Postman environment</h3>
      <p className="muted small">
        Postman's export of an environment, or the sandbox's o3 download (secrets in it are masked; a client's secret in
        a file goes to the encrypted store).
      </p>
      <div className="grid-2">
        <Field label="Postman environment file">
          {(id) => <input id={id} type="file" ref={fileRef} accept=".json,application/json" />}
        </Field>
        {clients.length ? (
          <Field
            label="or the sandbox's o3 download for client"
            hint="Downloads {base_url}/o3/v1.0/postman/environment for this client into the text below."
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
                    setO3Error(undefined)
                    const r = await fetchO3(o3Client)
                    if (r.ok) setText(JSON.stringify(r.value, null, 2))
                    else setO3Error(r.error)
                  }}
                >
                  Download
                </button>
              </div>
            )}
          </Field>
        ) : (
          <div />
        )}
      </div>
      <ErrorPanel error={o3Error} title="The o3 download failed" />
      <Field label="or its text">
        {(id) => (
          <textarea
            id={id}
            rows={5}
            value={text}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            placeholder={PLACEHOLDER}
          />
        )}
      </Field>
      <div className="grid-3">
        <Field label="Environment name" hint="Default: the file's name. An environment of that name is updated.">
          {(id, d) => <input id={id} aria-describedby={d} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field
          label="Identity of the file's client"
          hint="The client is kept only for the identity it was registered with."
        >
          {(id, d) => (
            <select id={id} aria-describedby={d} value={tppId} onChange={(e) => setTppId(e.target.value)}>
              <option value="">None: addresses only</option>
              {tpps.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Server certificate verification">
          {(id) => (
            <select id={id} value={tls} onChange={(e) => setTls(e.target.value as 'off' | 'system')}>
              <option value="off">Off (the bank's sandbox)</option>
              <option value="system">System CAs</option>
            </select>
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          Import
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Close
        </button>
      </div>
      <ErrorPanel error={op?.error} title="Not imported" />
      {imported && result ? (
        <div role="status" className="text-pass">
          Imported {result.environment.name}: {result.environment.baseUrl}, auth {result.environment.authUrl}
          {result.clientId ? `, client ${result.clientId} (current)` : ''}.
          {result.notes.map((n) => (
            <div key={n} className="muted small">
              {n}
            </div>
          ))}
        </div>
      ) : null}
    </form>
  )
}
