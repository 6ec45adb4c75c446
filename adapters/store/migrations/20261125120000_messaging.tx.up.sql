-- The messaging apps connected to each account (their secrets sealed by the vault), and the
-- inbound messages already accepted, so that a message delivered twice is answered once.

CREATE TABLE IF NOT EXISTS messaging_connections (
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    app             TEXT NOT NULL,
    hook            TEXT NOT NULL,
    phone_number_id TEXT NOT NULL DEFAULT '',
    sealed          BYTEA NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, app)
);

--bun:split

CREATE UNIQUE INDEX IF NOT EXISTS messaging_connections_hook ON messaging_connections (app, hook);

--bun:split

CREATE TABLE IF NOT EXISTS messaging_inbox (
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, key)
);
