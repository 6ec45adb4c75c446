-- A counter of the changes to API keys and accounts: every write of a key or an account bumps it
-- in its own transaction, and the SQLite store's processes read it every 50 ms, so that
-- authentication may keep what it read while nothing changed (ports.KeyChanges) and still see
-- another process's change (svcctl, another svc-api on the same file) within moments. Postgres
-- notifies its processes instead (LISTEN/NOTIFY) and leaves the row at 0.

CREATE TABLE IF NOT EXISTS auth_changes (
    id         INTEGER PRIMARY KEY,
    generation BIGINT NOT NULL DEFAULT 0
);

--bun:split

INSERT INTO auth_changes (id, generation) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
