-- One turn of a kept assistant conversation at a time (spec 3.1: a needs_input reply is answered
-- with the same conversation_id): the turn being answered holds the conversation (turn_id) until
-- it has kept its turns, or until turn_until when its process died; another turn waits for it,
-- and then reads the history with that turn in it.

ALTER TABLE assistant_conversations ADD COLUMN turn_id TEXT NOT NULL DEFAULT '';

--bun:split

ALTER TABLE assistant_conversations ADD COLUMN turn_until TIMESTAMPTZ;
