-- The agent's profile beyond name, languages and tone, its appearance, and the Brain: pages,
-- their chunks with vectors, FAQ items, and a per-account state whose version every change
-- increases (index caches compare it). Vectors are little-endian float32 blobs.

ALTER TABLE agents ADD COLUMN description TEXT NOT NULL DEFAULT '';

--bun:split

ALTER TABLE agents ADD COLUMN instructions TEXT NOT NULL DEFAULT '';

--bun:split

ALTER TABLE agents ADD COLUMN contact TEXT NOT NULL DEFAULT '{}';

--bun:split

ALTER TABLE agents ADD COLUMN appearance TEXT NOT NULL DEFAULT '{}';

--bun:split

CREATE TABLE IF NOT EXISTS knowledge_state (
    account_id       TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    version          BIGINT NOT NULL DEFAULT 0,
    business_summary TEXT NOT NULL DEFAULT '',
    site_url         TEXT NOT NULL DEFAULT '',
    updated_at       TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE IF NOT EXISTS pages (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    source     TEXT NOT NULL,
    site       TEXT NOT NULL DEFAULT '',
    url        TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    content    TEXT NOT NULL,
    chars      BIGINT NOT NULL,
    position   BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS pages_account_source ON pages (account_id, source, site);

--bun:split

CREATE TABLE IF NOT EXISTS chunks (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    page_id    TEXT NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    source     TEXT NOT NULL,
    url        TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    text       TEXT NOT NULL,
    ordinal    BIGINT NOT NULL,
    vector     BYTEA
);

--bun:split

CREATE INDEX IF NOT EXISTS chunks_account_page ON chunks (account_id, page_id);

--bun:split

CREATE TABLE IF NOT EXISTS faqs (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    question   TEXT NOT NULL,
    normalized TEXT NOT NULL,
    answer     TEXT NOT NULL,
    vector     BYTEA,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    UNIQUE (account_id, normalized)
);
