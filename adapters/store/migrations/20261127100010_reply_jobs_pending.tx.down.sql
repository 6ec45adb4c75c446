DROP INDEX IF EXISTS reply_jobs_pending;

--bun:split

CREATE INDEX IF NOT EXISTS reply_jobs_pending ON reply_jobs (status, lease_until);
