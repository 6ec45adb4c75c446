ALTER TABLE chunks DROP COLUMN cart;

--bun:split

DROP TABLE IF EXISTS plugin_orders;

--bun:split

DROP TABLE IF EXISTS plugin_sites;

--bun:split

DROP TABLE IF EXISTS plugin_codes;

--bun:split

DROP TABLE IF EXISTS plugin_requests;
