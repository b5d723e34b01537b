-- The sandbox store's tables (src-main/local-sandbox/store/postgres-store.ts). Whole records are jsonb,
-- with the columns the store's operations look up or lock by beside them.

-- The sandbox clock's offset: one row, moved by addition (offset_ms = offset_ms + $1), never down.
CREATE TABLE sandbox_clock (
  id integer PRIMARY KEY CHECK (id = 1),
  offset_ms bigint NOT NULL CHECK (offset_ms >= 0)
);
INSERT INTO sandbox_clock (id, offset_ms) VALUES (1, 0);

-- Account access and payment consents; status is the record's, kept beside it for compare-and-set.
CREATE TABLE consents (
  consent_id text PRIMARY KEY,
  status text NOT NULL,
  record jsonb NOT NULL
);

-- Domestic payments: at most one per consent.
CREATE TABLE payments (
  domestic_payment_id text PRIMARY KEY,
  consent_id text NOT NULL UNIQUE,
  debtor_account_id text,
  created_at_ms bigint NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX payments_debtor_account ON payments (debtor_account_id);

-- x-idempotency-key per client and endpoint: the body's hash and the resource it created.
CREATE TABLE idempotency_keys (
  client_id text NOT NULL,
  endpoint text NOT NULL,
  idempotency_key text NOT NULL,
  body_sha256 text NOT NULL,
  resource_id text NOT NULL,
  created_at_ms bigint NOT NULL,
  PRIMARY KEY (client_id, endpoint, idempotency_key)
);

-- PSU-absent accesses per counter key (sandbox ms), locked row by row while one is counted.
CREATE TABLE psu_absent_accesses (
  counter_key text PRIMARY KEY,
  times_ms jsonb NOT NULL
);

-- Registration JWT ids per software statement, until their JWT's exp (seconds).
CREATE TABLE registration_jtis (
  software_id text NOT NULL,
  jti text NOT NULL,
  exp_seconds bigint NOT NULL,
  PRIMARY KEY (software_id, jti)
);
