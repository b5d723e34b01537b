-- Fault rules with their counts (src-main/local-sandbox/store/postgres-fault-rules.ts): one rule set for
-- every instance on the store. A request a rule matches is counted by one UPDATE whose WHERE re-checks
-- `times` on the locked row, so a rule with `times: 1` faults one request across all instances.
CREATE TABLE fault_rules (
  -- Never reused: an instance's cached list names the rule it matched by it.
  key bigserial PRIMARY KEY,
  position integer NOT NULL,
  id text NOT NULL UNIQUE,
  rule jsonb NOT NULL,
  skip integer NOT NULL,
  -- Null: every matching request after skip.
  times integer,
  seen bigint NOT NULL DEFAULT 0,
  hits bigint NOT NULL DEFAULT 0
);

-- The number of the next id given to a rule its author left unnamed (f1, f2, ...).
CREATE TABLE fault_rule_ids (
  id integer PRIMARY KEY CHECK (id = 1),
  next bigint NOT NULL
);
INSERT INTO fault_rule_ids (id, next) VALUES (1, 1);

-- Conformance records (src-main/local-sandbox/store/postgres-conformance.ts): per client, the state of its
-- record, updated under the row's lock by whichever instance the request went to. `active` orders the
-- records by last activity: past the limit the least recently active one is dropped.
CREATE SEQUENCE conformance_activity;

CREATE TABLE conformance_clients (
  key text PRIMARY KEY,
  state jsonb NOT NULL,
  active bigint NOT NULL DEFAULT nextval('conformance_activity')
);
CREATE INDEX conformance_clients_active ON conformance_clients (active);

-- Access tokens seen valid (by hash, never the token): whose a later refused token was.
CREATE TABLE conformance_tokens (
  hash text PRIMARY KEY,
  client_id text NOT NULL,
  expires_at bigint NOT NULL,
  active bigint NOT NULL DEFAULT nextval('conformance_activity')
);
CREATE INDEX conformance_tokens_active ON conformance_tokens (active);

-- The client last seen with a transport certificate (x5t#S256).
CREATE TABLE conformance_certificates (
  thumbprint text PRIMARY KEY,
  client_id text NOT NULL,
  active bigint NOT NULL DEFAULT nextval('conformance_activity')
);
CREATE INDEX conformance_certificates_active ON conformance_certificates (active);

CREATE TABLE conformance_counters (
  id integer PRIMARY KEY CHECK (id = 1),
  unattributed bigint NOT NULL DEFAULT 0,
  evicted_clients bigint NOT NULL DEFAULT 0
);
INSERT INTO conformance_counters (id) VALUES (1);
