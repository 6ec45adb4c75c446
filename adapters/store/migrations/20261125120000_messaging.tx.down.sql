DROP TABLE IF EXISTS messaging_inbox;

--bun:split

DROP TABLE IF EXISTS messaging_connections;
