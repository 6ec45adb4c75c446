DROP INDEX IF EXISTS reply_jobs_request_key;

--bun:split

ALTER TABLE reply_jobs DROP COLUMN request_key;
