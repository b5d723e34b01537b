-- oidc-provider's models (src-main/local-sandbox/store/postgres-oidc-models.ts): clients, grants, tokens,
-- authorisation codes, sessions, interactions, replay detection. The payload is oidc-provider's, whole;
-- the columns the store looks up by are generated from it. Times are wall-clock seconds, as oidc-provider
-- counts them.
CREATE SEQUENCE oidc_model_versions;

CREATE TABLE oidc_models (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  -- Null: never expires. Expired rows are not found, and are deleted on a schedule.
  expires_at bigint,
  -- Set once, by consume (UPDATE ... WHERE consumed_at IS NULL): a code or refresh token is redeemed once.
  consumed_at bigint,
  -- Changes on every write: a reader that remembered it can tell whether the entry is the one it checked.
  version bigint NOT NULL DEFAULT nextval('oidc_model_versions'),
  grant_id text GENERATED ALWAYS AS (payload ->> 'grantId') STORED,
  client_id text GENERATED ALWAYS AS (payload ->> 'clientId') STORED,
  uid text GENERATED ALWAYS AS (payload ->> 'uid') STORED,
  user_code text GENERATED ALWAYS AS (payload ->> 'userCode') STORED,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_client ON oidc_models (client_id) WHERE client_id IS NOT NULL;
CREATE INDEX oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_models_expiry ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;
