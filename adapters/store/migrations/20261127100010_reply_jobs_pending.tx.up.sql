-- The sweep looks for pending reply jobs whose lease ran out (status = 'pending' AND
-- lease_until < now, oldest lease first). Every reply of the built-in engine stores its job done,
-- so the index holds the pending jobs only: a done job writes no index entry (on Postgres, an
-- index insert and its WAL fewer per reply), and the index stays as small as the jobs in flight.

DROP INDEX IF EXISTS reply_jobs_pending;

--bun:split

CREATE INDEX IF NOT EXISTS reply_jobs_pending ON reply_jobs (lease_until) WHERE status = 'pending';
