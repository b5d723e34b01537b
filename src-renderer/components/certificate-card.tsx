import type { ReactNode } from 'react'
import type { CertificateInspectionDto } from '../../src-main/contract/certificates.ts'
import { formatDate } from '../lib/format.ts'
import { KeyValue } from './key-value.tsx'

/** Everything about one X.509 certificate: names, validity, key, fingerprints, the tls_client_auth DN. */
export function CertificateCard({ cert, title }: { cert: CertificateInspectionDto; title: string }) {
  const key = `${cert.publicKey.type}${cert.publicKey.size ? ` ${cert.publicKey.size}` : ''}${cert.publicKey.curve ? ` ${cert.publicKey.curve}` : ''}`
  return (
    <article className="card cert" aria-label={title}>
      <h4>{title}</h4>
      {cert.expiryWarning ? (
        <p className={cert.expired ? 'text-fail' : 'text-warn'} role="note">
          {cert.expiryWarning}
        </p>
      ) : null}
      {cert.notYetValid ? (
        <p className="text-fail" role="note">
          Not valid yet: valid from {formatDate(cert.notBefore)}.
        </p>
      ) : null}
      <KeyValue
        label={title}
        rows={[
          ['Subject', <code className="wrap">{cert.subjectDn}</code>],
          ['Issuer', <code className="wrap">{cert.issuerDn}</code>],
          ['Serial', <code>{cert.serialNumber}</code>],
          ['Valid', `${formatDate(cert.notBefore)} → ${formatDate(cert.notAfter)} (${cert.daysToExpiry} days left)`],
          [
            'SANs',
            cert.subjectAltNames.length
              ? cert.subjectAltNames.map((s) => `${s.type}:${s.value}`).join(', ')
              : undefined,
          ],
          ['Key', key],
          ['Signature', cert.signatureAlgorithm],
          ['SHA-256', <code className="wrap">{cert.sha256Hex}</code>],
          ['x5t#S256', <code className="wrap">{cert.x5tS256}</code>],
          // A CA's OU and CN are its own names, not an organisation id and a software id; nor does a CA
          // authenticate a client, so it has no tls_client_auth DN worth showing.
          ...(cert.isCa
            ? ([
                ['Organisational unit (OU)', cert.orgId],
                ['Common name (CN)', cert.softwareId],
              ] satisfies Array<[string, ReactNode]>)
            : ([
                ['tls_client_auth_subject_dn', <code className="wrap">{cert.tlsClientAuthSubjectDn}</code>],
                ['Organisation id (OU)', cert.orgId],
                ['Software id (CN)', cert.softwareId],
              ] satisfies Array<[string, ReactNode]>)),
          ['Key usage', cert.keyUsages.join(', ') || undefined],
          ['Extended key usage', cert.extendedKeyUsages.join(', ') || undefined],
          ['Kind', `${cert.isCa ? 'CA' : 'end entity'}${cert.selfSigned ? ', self-signed' : ''}`],
        ]}
      />
    </article>
  )
}
