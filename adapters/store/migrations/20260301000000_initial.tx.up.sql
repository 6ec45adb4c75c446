-- One schema for Postgres and SQLite. The column types are Postgres's; SQLite accepts them and
-- gives them fitting affinities (TEXT, BIGINT as INTEGER, BYTEA holding blobs, BOOLEAN as 0/1,
-- TIMESTAMPTZ holding bun's UTC text 'YYYY-MM-DD HH:MM:SS.ffffff+00:00', which sorts and compares
-- in time order). Lists are JSON text.

CREATE TABLE IF NOT EXISTS accounts (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    plan              TEXT NOT NULL,
    interaction_limit BIGINT NOT NULL DEFAULT 0,
    status            TEXT NOT NULL,
    owner_email       TEXT NOT NULL DEFAULT '',
    widget_token      TEXT UNIQUE,
    allowed_domains   TEXT NOT NULL DEFAULT '[]',
    developer_bonus   BOOLEAN NOT NULL DEFAULT FALSE,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE IF NOT EXISTS api_keys (
    id                    TEXT PRIMARY KEY,
    account_id            TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name                  TEXT NOT NULL DEFAULT '',
    hash                  TEXT NOT NULL UNIQUE,
    last4                 TEXT NOT NULL DEFAULT '',
    send_without_approval BOOLEAN NOT NULL DEFAULT FALSE,
    created_at            TIMESTAMPTZ NOT NULL,
    revoked_at            TIMESTAMPTZ
);

--bun:split

CREATE INDEX IF NOT EXISTS api_keys_account_id ON api_keys (account_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS agents (
    account_id        TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    business_name     TEXT NOT NULL DEFAULT '',
    languages         TEXT NOT NULL DEFAULT '[]',
    tone              TEXT NOT NULL DEFAULT '',
    channel_api       BOOLEAN NOT NULL DEFAULT TRUE,
    channel_web       BOOLEAN NOT NULL DEFAULT TRUE,
    channel_messaging BOOLEAN NOT NULL DEFAULT TRUE,
    updated_at        TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE IF NOT EXISTS usage_periods (
    account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    period_start     TIMESTAMPTZ NOT NULL,
    spent            BIGINT NOT NULL DEFAULT 0,
    limit_reached_at TIMESTAMPTZ,
    PRIMARY KEY (account_id, period_start)
);

--bun:split

CREATE TABLE IF NOT EXISTS charges (
    id                 TEXT PRIMARY KEY,
    account_id         TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    action             TEXT NOT NULL,
    cost               BIGINT NOT NULL,
    ref                TEXT NOT NULL DEFAULT '',
    label_source       TEXT NOT NULL DEFAULT '',
    label_workflow     TEXT NOT NULL DEFAULT '',
    label_workflow_id  TEXT NOT NULL DEFAULT '',
    label_execution_id TEXT NOT NULL DEFAULT '',
    period_start       TIMESTAMPTZ NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS charges_account_id_created_at ON charges (account_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS outbox (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL DEFAULT '',
    topic       TEXT NOT NULL,
    payload     BYTEA NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    enqueued_at TIMESTAMPTZ,
    done_at     TIMESTAMPTZ,
    attempts    BIGINT NOT NULL DEFAULT 0
);

--bun:split

-- Claiming scans the messages not done yet, oldest first.
CREATE INDEX IF NOT EXISTS outbox_undone ON outbox (created_at, id) WHERE done_at IS NULL;
