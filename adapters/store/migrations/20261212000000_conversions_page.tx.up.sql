-- A report's page of conversions (GET /v1/conversions) is read newest first by created_at, then
-- id, after a cursor: the index ends with id, so that a page reads its rows in order and stops
-- after them, ties included. It serves the period's range as conversions_account did.

CREATE INDEX IF NOT EXISTS conversions_page ON conversions (account_id, created_at, id);

--bun:split

DROP INDEX IF EXISTS conversions_account;
