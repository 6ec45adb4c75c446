DROP TABLE IF EXISTS outbox;

--bun:split

DROP TABLE IF EXISTS charges;

--bun:split

DROP TABLE IF EXISTS usage_periods;

--bun:split

DROP TABLE IF EXISTS agents;

--bun:split

DROP TABLE IF EXISTS api_keys;

--bun:split

DROP TABLE IF EXISTS accounts;
