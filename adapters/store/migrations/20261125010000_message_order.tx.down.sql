DROP INDEX IF EXISTS messages_conversation_seq;

--bun:split

CREATE INDEX IF NOT EXISTS messages_conversation ON messages (account_id, conversation_id, seq);

--bun:split

ALTER TABLE messages DROP COLUMN reply_to;
