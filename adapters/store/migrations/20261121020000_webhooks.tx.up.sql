-- Webhooks (signing secrets sealed by the vault), the log of delivery attempts, conversions,
-- the owner's notifications, and the service's own sealed settings (the vault key when none is
-- configured).

CREATE TABLE IF NOT EXISTS webhooks (
    id               TEXT PRIMARY KEY,
    account_id       TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url              TEXT NOT NULL,
    events           TEXT NOT NULL DEFAULT '[]',
    active           BOOLEAN NOT NULL DEFAULT TRUE,
    sealed_secret    BYTEA NOT NULL,
    failures         BIGINT NOT NULL DEFAULT 0,
    last_status      BIGINT NOT NULL DEFAULT 0,
    last_delivery_at TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS webhooks_account ON webhooks (account_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    webhook_id  TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    attempt     BIGINT NOT NULL,
    status_code BIGINT NOT NULL DEFAULT 0,
    duration_ms BIGINT NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS webhook_deliveries_webhook ON webhook_deliveries (account_id, webhook_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS conversions (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    amount          DOUBLE PRECISION,
    currency        TEXT NOT NULL DEFAULT '',
    reference       TEXT NOT NULL DEFAULT '',
    conversation_id TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE INDEX IF NOT EXISTS conversions_account ON conversions (account_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS notifications (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    read_at    TIMESTAMPTZ
);

--bun:split

CREATE INDEX IF NOT EXISTS notifications_account ON notifications (account_id, created_at);

--bun:split

CREATE TABLE IF NOT EXISTS service_settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
