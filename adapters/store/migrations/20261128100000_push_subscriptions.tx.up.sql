-- The owner's Web Push subscriptions (one per browser alerted of the account's notifications):
-- the browser's push service endpoint and the keys its messages are encrypted to. One row per
-- endpoint of an account; at most push.MaxPerAccount, the oldest replaced.

CREATE TABLE IF NOT EXISTS push_subscriptions (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

--bun:split

CREATE UNIQUE INDEX IF NOT EXISTS push_subscriptions_endpoint ON push_subscriptions (account_id, endpoint);
