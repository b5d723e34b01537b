-- The bank's identity, shared by every instance on the store (src-main/local-sandbox/store/postgres-documents.ts):
-- the PKI, the authorisation server's and the directory's signing keys, oidc-provider's cookie keys and the
-- directory's TPP records, each named by the path it has in an embedded data directory (pki/root-ca.key,
-- directory/tpps/<softwareId>.json, ...).
CREATE TABLE bank_documents (
  name text PRIMARY KEY,
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
