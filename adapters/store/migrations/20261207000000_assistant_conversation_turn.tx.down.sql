ALTER TABLE assistant_conversations DROP COLUMN turn_until;

--bun:split

ALTER TABLE assistant_conversations DROP COLUMN turn_id;
