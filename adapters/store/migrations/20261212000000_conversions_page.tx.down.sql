CREATE INDEX IF NOT EXISTS conversions_account ON conversions (account_id, created_at);

--bun:split

DROP INDEX IF EXISTS conversions_page;
