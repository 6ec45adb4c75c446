-- The site plugin protocol (spec 4.9): connection requests waiting for the owner's approval (30
-- minutes), connect codes (hashed, single use, 10 minutes), the connected sites with the hash of
-- their secret plugin token and their last sync, the orders already reported (one conversion per
-- order of a site), and the cart id of a synced product's chunks.

CREATE TABLE IF NOT EXISTS plugin_requests (
    id         TEXT PRIMARY KEY,
    site       TEXT NOT NULL,
    return_url TEXT NOT NULL,
    state      TEXT NOT NULL,
    lang       TEXT NOT NULL DEFAULT '',
    woo        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE TABLE IF NOT EXISTS plugin_codes (
    hash       TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    site       TEXT NOT NULL,
    return_url TEXT NOT NULL,
    state      TEXT NOT NULL,
    lang       TEXT NOT NULL DEFAULT '',
    woo        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);

--bun:split

CREATE TABLE IF NOT EXISTS plugin_sites (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    site          TEXT NOT NULL,
    site_url      TEXT NOT NULL,
    platform      TEXT NOT NULL DEFAULT '',
    woo           BOOLEAN NOT NULL DEFAULT FALSE,
    lang          TEXT NOT NULL DEFAULT '',
    token_hash    TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    revoked_at    TIMESTAMPTZ,
    last_sync_at  TIMESTAMPTZ,
    sync_pages    BIGINT NOT NULL DEFAULT 0,
    sync_posts    BIGINT NOT NULL DEFAULT 0,
    sync_products BIGINT NOT NULL DEFAULT 0,
    sync_chars    BIGINT NOT NULL DEFAULT 0
);

--bun:split

CREATE UNIQUE INDEX IF NOT EXISTS plugin_sites_token ON plugin_sites (token_hash);

--bun:split

CREATE INDEX IF NOT EXISTS plugin_sites_account ON plugin_sites (account_id, site);

--bun:split

CREATE TABLE IF NOT EXISTS plugin_orders (
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    site          TEXT NOT NULL,
    order_id      BIGINT NOT NULL,
    conversion_id TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, site, order_id)
);

--bun:split

ALTER TABLE chunks ADD COLUMN cart TEXT NOT NULL DEFAULT '';
