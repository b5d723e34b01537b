import { useRef, useState } from 'react'
import type { TppIdentityDto } from '../../../src-main/contract/environments.ts'
import { CertificateCard } from '../../components/certificate-card.tsx'
import { ChecksList } from '../../components/checks-list.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { FileField } from '../../components/file-field.tsx'
import { TextAreaField, TextField } from '../../components/text-field.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { formatDate } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { ImportMaterial, ImportSsa } from './import-forms.tsx'
import { readCertificatePem } from './read-file.ts'
import { useConfirm } from '../../components/confirm-prompt.tsx'

/** Creates a TPP identity (its certificates and keys are imported after). */
export function NewTppForm({ onDone }: { onDone: (id?: string) => void }) {
  const save = useApp((s) => s.saveTpp)
  const op = useApp((s) => s.ops['tpps.save'])
  const [name, setName] = useState('')
  const [orgId, setOrgId] = useState('')
  const [uris, setUris] = useState('')
  return (
    <form
      className="card"
      aria-label="New TPP identity"
      onSubmit={async (e) => {
        e.preventDefault()
        const tpp = await save({
          name,
          ...(orgId ? { orgId } : {}),
          redirectUris: uris
            .split('\n')
            .map((u) => u.trim())
            .filter(Boolean),
        })
        if (tpp) onDone(tpp.id)
      }}
    >
      <h3>New TPP identity</h3>
      <div className="grid-2">
        <TextField label="Identity name" value={name} onChange={setName} required />
        <TextField label="Organisation id" value={orgId} onChange={setOrgId} />
      </div>
      <TextAreaField
        label="Redirect URIs"
        hint="One per line, as on the software statement."
        rows={2}
        value={uris}
        onChange={setUris}
      />
      <div className="actions">
        <button type="submit" disabled={op?.busy}>
          Create identity
        </button>
        <button type="button" className="secondary" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
      <ErrorPanel error={op?.error} title="Not created" />
    </form>
  )
}

/** What the identity holds, public facts only: its ids, keys, software statement and certificates. */
function TppFacts({ tpp }: { tpp: TppIdentityDto }) {
  const ss = tpp.softwareStatement
  return (
    <>
      <KeyValue
        label="Identity"
        rows={[
          ['Organisation id', tpp.orgId],
          ['Software id', tpp.softwareId],
          ['Redirect URIs', tpp.redirectUris.join(', ') || undefined],
          ['Created', formatDate(tpp.createdAt)],
          ['Signing kid', tpp.signing?.kid],
          [
            'Signing key',
            tpp.signing
              ? `${tpp.signing.key.publicKey.type} ${tpp.signing.key.publicKey.size ?? ''} · thumbprint ${tpp.signing.key.jwkThumbprint}`
              : 'none',
          ],
          [
            'Transport key',
            tpp.transport
              ? `${tpp.transport.key.publicKey.type} ${tpp.transport.key.publicKey.size ?? ''} · thumbprint ${tpp.transport.key.jwkThumbprint}`
              : 'none',
          ],
        ]}
      />
      {ss ? (
        <article className="card" aria-label="Software statement">
          <h4>Software statement</h4>
          <KeyValue
            rows={[
              ['Software', ss.clientName ?? ss.softwareId],
              ['Organisation', ss.orgName ?? ss.orgId],
              ['Roles', ss.roles.join(', ')],
              ['Redirect URIs', ss.redirectUris.join(', ')],
              ['JWKS', ss.jwksEndpoint],
              ['Issuer', ss.issuer],
              ['Issued', formatDate(ss.issuedAt)],
              ['Mode', ss.mode],
            ]}
          />
        </article>
      ) : null}
      <div className="certs">
        {tpp.transport?.certificate ? (
          <CertificateCard cert={tpp.transport.certificate} title="Transport certificate" />
        ) : null}
        {tpp.signing?.certificate ? (
          <CertificateCard cert={tpp.signing.certificate} title="Signing certificate" />
        ) : null}
        {tpp.issuingCa ? <CertificateCard cert={tpp.issuingCa} title="Issuing CA" /> : null}
        {tpp.rootCa ? <CertificateCard cert={tpp.rootCa} title="Root CA" /> : null}
      </div>
    </>
  )
}

/** One TPP identity: what it holds (public facts only), imports, and the prerequisites checklist. */
export function TppPanel({ tpp }: { tpp: TppIdentityDto }) {
  const [ask, prompt] = useConfirm()
  const check = useApp((s) => s.checkPrerequisites)
  const checks = useApp((s) => s.prerequisites[tpp.id])
  const checkOp = useApp((s) => s.ops[`tpps.checkPrerequisites:${tpp.id}`])
  const remove = useApp((s) => s.removeTpp)
  const removeOp = useApp((s) => s.ops[`tpps.remove:${tpp.id}`])
  const openPrerequisites = useApp((s) => s.openPrerequisites)
  const navigate = useApp((s) => s.navigate)
  return (
    <section className="tpp" aria-label={`TPP identity ${tpp.name}`}>
      <header className="view-head">
        <h3>{tpp.name}</h3>
        <div className="actions">
          <button type="button" onClick={() => void check(tpp.id)} disabled={checkOp?.busy}>
            Check prerequisites
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => openPrerequisites(tpp.id)}
            title="The identity against an environment and its directory: SSA signature, organisation, certificate subject"
          >
            Full checklist with the directory
          </button>
          <button type="button" className="secondary" onClick={() => navigate('keys')}>
            Generate keys and CSRs
          </button>
          <button
            type="button"
            className="danger"
            onClick={async () => {
              const yes = await ask({
                label: `Confirm removing identity ${tpp.name}`,
                message: `Remove the identity "${tpp.name}" and its keys?`,
                confirmLabel: 'Remove it',
                danger: true,
              })
              if (yes) void remove(tpp.id)
            }}
          >
            Remove
          </button>
        </div>
      </header>
      {prompt}
      <ErrorPanel error={removeOp?.error} title="Not removed" />
      <ErrorPanel error={checkOp?.error} title="Prerequisites not checked" />
      {checks ? <ChecksList checks={checks} label="Prerequisites" /> : null}
      <TppFacts tpp={tpp} />
      <ImportSsa tppId={tpp.id} />
      <ImportMaterial tppId={tpp.id} />
    </section>
  )
}

/** Paste any certificate (PEM, one or a chain) to see what the console sees. */
export function CertificateInspector() {
  const inspect = useApp((s) => s.inspectCertificate)
  const certs = useApp((s) => s.inspectedCertificates)
  const op = useApp((s) => s.ops['certificates.inspect'])
  const [pem, setPem] = useState('')
  const fileRef = useRef<HTMLInputElement>(null)
  const [hasFile, setHasFile] = useState(false)
  return (
    <section className="card" aria-label="Certificate inspector">
      <h3>Inspect a certificate</h3>
      <form
        onChange={() => setHasFile(!!fileRef.current?.files?.length)}
        onSubmit={async (e) => {
          e.preventDefault()
          const file = fileRef.current?.files?.[0]
          void inspect(file ? await readCertificatePem(file) : pem)
        }}
      >
        <TextAreaField
          label="Certificate PEM"
          hint="One certificate or a chain; public material only."
          rows={4}
          value={pem}
          onChange={setPem}
          spellCheck={false}
        />
        <FileField
          label="or a certificate file"
          hint="PEM, or binary DER (.cer, .der); read here and sent for inspection, never kept."
          ref={fileRef}
          accept=".pem,.crt,.cer,.der,application/x-x509-ca-cert,application/pkix-cert"
        />
        <button type="submit" disabled={(!pem.trim() && !hasFile) || op?.busy}>
          Inspect
        </button>
      </form>
      <ErrorPanel error={op?.error} title="Not inspected" />
      <div className="certs">
        {certs?.map((c, i) => (
          <CertificateCard key={i} cert={c} title={`Certificate ${i + 1}: ${c.subjectDn}`} />
        ))}
      </div>
    </section>
  )
}
