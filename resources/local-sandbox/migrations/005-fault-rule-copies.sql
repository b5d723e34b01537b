-- Every change of the fault rules gets a version (src-main/local-sandbox/store/postgres-fault-rules.ts),
-- announced with NOTIFY when it commits. Each instance's listening session records here the newest version
-- its cached copy holds; the change's author answers once every listening session has it (or a bound
-- passed), so a rule set through one instance is in force on all of them when its 201 arrives.
ALTER TABLE fault_rule_ids ADD COLUMN version bigint NOT NULL DEFAULT 0;

CREATE TABLE fault_rule_copies (
  -- pg_backend_pid() of the instance's listening session (named in pg_stat_activity.application_name).
  listener integer PRIMARY KEY,
  version bigint NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
