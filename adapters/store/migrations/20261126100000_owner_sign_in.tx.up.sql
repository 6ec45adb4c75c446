-- The owner's console sign-in: one credential per account (e-mail unique across accounts, stored
-- lower case; the password's bcrypt hash), and the server-side sessions it opens (the hash of the
-- cookie's token), so that signing out or changing the password ends them everywhere.

CREATE TABLE IF NOT EXISTS owner_credentials (
    account_id    TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE IF NOT EXISTS owner_sessions (
    hash       TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS owner_sessions_account_id ON owner_sessions (account_id);
