-- Conversations (keyed by the caller's id within an account), their messages, the pending
-- replies (jobs with a lease), client sessions (token hashes) and bookings.

CREATE TABLE IF NOT EXISTS conversations (
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    id            TEXT NOT NULL,
    channel       TEXT NOT NULL,
    customer_name TEXT NOT NULL DEFAULT '',
    contact_id    TEXT NOT NULL DEFAULT '',
    tags          TEXT NOT NULL DEFAULT '[]',
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id)
);

--bun:split

CREATE INDEX IF NOT EXISTS conversations_list ON conversations (account_id, channel, created_at, id);

--bun:split

CREATE TABLE IF NOT EXISTS messages (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    role            TEXT NOT NULL,
    content         TEXT NOT NULL,
    actions         TEXT NOT NULL DEFAULT '[]',
    created_at      TIMESTAMPTZ NOT NULL,
    seq             BIGINT NOT NULL,
    FOREIGN KEY (account_id, conversation_id) REFERENCES conversations (account_id, id) ON DELETE CASCADE
);

--bun:split

CREATE INDEX IF NOT EXISTS messages_conversation ON messages (account_id, conversation_id, seq);

--bun:split

CREATE TABLE IF NOT EXISTS reply_jobs (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL,
    message_id      TEXT NOT NULL,
    channel         TEXT NOT NULL,
    status          TEXT NOT NULL,
    lease_until     TIMESTAMPTZ NOT NULL,
    attempts        BIGINT NOT NULL DEFAULT 0,
    reply_id        TEXT NOT NULL DEFAULT '',
    error           TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS reply_jobs_pending ON reply_jobs (status, lease_until);

--bun:split

CREATE TABLE IF NOT EXISTS client_sessions (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL,
    customer_name   TEXT NOT NULL DEFAULT '',
    hash            TEXT NOT NULL UNIQUE,
    expires_at      TIMESTAMPTZ NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE IF NOT EXISTS bookings (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL,
    customer_name   TEXT NOT NULL DEFAULT '',
    date            TEXT NOT NULL,
    time            TEXT NOT NULL,
    duration        TEXT NOT NULL DEFAULT '',
    type            TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL
);
