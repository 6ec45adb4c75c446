-- The keys of idempotent requests (the REST API's Idempotency-Key header, domain/idempotency):
-- one row per account, scope (the API keys' "key", or a client session's "client:<id>") and key,
-- inserted by the first request with the key (the primary key makes exactly one of concurrent
-- requests insert it) and given the request's answer when it is answered; status 0 while it
-- runs. Rows are deleted a day after they were made (the sweep, by created_at).

CREATE TABLE IF NOT EXISTS idempotency_keys (
    account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    scope        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    route        TEXT NOT NULL,
    body_hash    TEXT NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0,
    content_type TEXT NOT NULL DEFAULT '',
    body         BYTEA,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, scope, idem_key)
);

--bun:split

CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
