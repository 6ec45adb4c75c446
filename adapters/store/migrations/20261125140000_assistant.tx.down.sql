DROP TABLE IF EXISTS mailboxes;

--bun:split

DROP TABLE IF EXISTS assistant_turns;

--bun:split

DROP TABLE IF EXISTS approvals;

--bun:split

DROP TABLE IF EXISTS owner_records;
