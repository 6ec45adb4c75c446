-- An agent message names the customer message it answers (reply_to; the replies stored before
-- get it from their reply job), and a conversation's messages are numbered once each: messages
-- sent at once could share a number before. Shared numbers are renumbered in the order the
-- messages were listed, and a unique index keeps them apart.

ALTER TABLE messages ADD COLUMN reply_to TEXT NOT NULL DEFAULT '';

--bun:split

UPDATE messages SET reply_to = j.message_id
FROM reply_jobs AS j
WHERE j.account_id = messages.account_id AND j.reply_id = messages.id AND messages.role = 'agent';

--bun:split

UPDATE messages SET seq = r.n
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY account_id, conversation_id ORDER BY seq, id) AS n FROM messages) AS r
WHERE messages.id = r.id AND messages.seq <> r.n;

--bun:split

DROP INDEX IF EXISTS messages_conversation;

--bun:split

CREATE UNIQUE INDEX IF NOT EXISTS messages_conversation_seq ON messages (account_id, conversation_id, seq);
