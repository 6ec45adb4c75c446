-- The request that sent a job's customer message, when it came with an Idempotency-Key: the
-- hex SHA-256 of the key's caller, route, key and body (idempotency.Record.Ref), '' otherwise.
-- A retry of a request whose reply failed (a 402 or a 5xx after the message was stored frees the
-- key) finds the message by it and answers it, rather than store it again.

ALTER TABLE reply_jobs ADD COLUMN request_key TEXT NOT NULL DEFAULT '';

--bun:split

CREATE INDEX IF NOT EXISTS reply_jobs_request_key ON reply_jobs (account_id, request_key, created_at) WHERE request_key <> '';
