-- The owner's assistant: the owner's own records, approvals (the actions they will run, as
-- JSON, with their hash), the assistant's conversations, and each account's mail connector
-- (its password sealed by the vault).

CREATE TABLE IF NOT EXISTS owner_records (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    type       TEXT NOT NULL,
    record_key TEXT NOT NULL,
    title      TEXT NOT NULL,
    email      TEXT NOT NULL DEFAULT '',
    phone      TEXT NOT NULL DEFAULT '',
    date       TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE UNIQUE INDEX IF NOT EXISTS owner_records_key ON owner_records (account_id, record_key);

--bun:split

CREATE INDEX IF NOT EXISTS owner_records_type ON owner_records (account_id, type, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS approvals (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    actions         TEXT NOT NULL,
    hash            TEXT NOT NULL,
    status          TEXT NOT NULL,
    lang            TEXT NOT NULL DEFAULT '',
    conversation_id TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL,
    used_at         TIMESTAMPTZ
);

--bun:split

CREATE INDEX IF NOT EXISTS approvals_account ON approvals (account_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS assistant_turns (
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL,
    seq             BIGINT NOT NULL,
    role            TEXT NOT NULL,
    content         TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT '',
    missing         TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, conversation_id, seq)
);

--bun:split

CREATE TABLE IF NOT EXISTS mailboxes (
    account_id      TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    host            TEXT NOT NULL,
    port            BIGINT NOT NULL,
    username        TEXT NOT NULL DEFAULT '',
    sealed_password BYTEA,
    from_address    TEXT NOT NULL,
    security        TEXT NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
