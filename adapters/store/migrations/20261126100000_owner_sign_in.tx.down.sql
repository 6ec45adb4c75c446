DROP TABLE IF EXISTS owner_sessions;

--bun:split

DROP TABLE IF EXISTS owner_credentials;
