-- The owner's kept assistant conversations, one row each (their turns are in assistant_turns):
-- when each began and last moved, so that they are listed among the account's conversations
-- (GET /v1/conversations, spec 4.7 rule 8) in the same order and by the same cursor
-- (created_at, id) as the customers', through an index. Filled from the turns kept so far.

CREATE TABLE IF NOT EXISTS assistant_conversations (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, id)
);

--bun:split

CREATE INDEX IF NOT EXISTS assistant_conversations_order ON assistant_conversations (account_id, created_at, id);

--bun:split

INSERT INTO assistant_conversations (account_id, id, created_at, updated_at)
SELECT account_id, conversation_id, MIN(created_at), MAX(created_at)
FROM assistant_turns
GROUP BY account_id, conversation_id;
