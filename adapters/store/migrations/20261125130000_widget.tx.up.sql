-- The website chat widget's saved style, one row per account that saved one (the others use the
-- default style). Accounts are found by their widget token through the unique index of
-- accounts.widget_token.

CREATE TABLE IF NOT EXISTS widget_styles (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    position   TEXT NOT NULL,
    theme      TEXT NOT NULL,
    accent     TEXT NOT NULL,
    drag       BOOLEAN NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
