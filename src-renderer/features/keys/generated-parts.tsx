import { CertificateCard } from '../../components/certificate-card.tsx'
import { CopyButton } from '../../components/copy-button.tsx'
import { KeyValue } from '../../components/key-value.tsx'
import { saveText } from '../../lib/download.ts'
import { useApp } from '../../store/store.ts'

/** One public part: its text, copied or saved as a file under the name the CLI writes it as. */
function Part({ title, filename, text, type }: { title: string; filename: string; text: string; type: string }) {
  return (
    <div className="export" aria-label={title} role="group">
      <div className="view-head">
        <h4>{title}</h4>
        <div className="actions">
          <button
            type="button"
            className="secondary small"
            onClick={() => saveText(filename, text, type)}
            aria-label={`Download ${filename}`}
          >
            Download {filename}
          </button>
          <CopyButton text={text} ariaLabel={`Copy ${title}`} small />
        </div>
      </div>
      <textarea
        readOnly
        rows={Math.min(8, text.split('\n').length)}
        value={text}
        aria-label={`${title} text`}
        spellCheck={false}
      />
    </div>
  )
}

/** The public parts of the last generation: CSRs, the self-signed certificate, the JWKS. */
export function GeneratedParts() {
  const generated = useApp((s) => s.generated)
  const tpp = useApp((s) => s.tpps.find((t) => t.id === s.generated?.keys.tppId))
  if (!generated) return null
  const { keys, certificate } = generated
  return (
    <section className="card" aria-label="Generated public parts">
      <h2>
        Generated for <code className="wrap">{keys.subjectDn}</code>
      </h2>
      <KeyValue
        label="Generated"
        rows={[
          ['Identity', tpp?.name ?? keys.tppId],
          ['Private keys', 'stored encrypted in the identity (never shown or exported)'],
          ['Signing kid', keys.signing?.kid],
          [
            'Transport',
            !keys.transport
              ? undefined
              : keys.transport.waitsForCertificate
                ? 'the key waits for the certificate the directory issues from the CSR: attach it below'
                : "self-signed certificate in use (the bank's sandbox)",
          ],
        ]}
      />
      {keys.transport ? (
        <Part
          title="Transport CSR"
          filename="transport.csr.pem"
          text={keys.transport.csrPem}
          type="application/pkcs10"
        />
      ) : null}
      {keys.transport?.certificatePem ? (
        <Part
          title="Self-signed transport certificate"
          filename="transport.cert.pem"
          text={keys.transport.certificatePem}
          type="application/x-pem-file"
        />
      ) : null}
      {keys.signing ? (
        <Part title="Signing CSR" filename="signing.csr.pem" text={keys.signing.csrPem} type="application/pkcs10" />
      ) : null}
      <Part
        title="Public JWKS"
        filename="public.jwks.json"
        text={JSON.stringify(keys.jwks, null, 2) + '\n'}
        type="application/json"
      />
      {certificate ? (
        <div className="certs">
          <CertificateCard cert={certificate} title="Self-signed transport certificate details" />
        </div>
      ) : null}
    </section>
  )
}
