-- An approval keeps what its actions did (outcome: JSON, '' before they ran) and when the reply
-- to the approve call was given (answered_at): when the call that ran them failed after, the
-- owner's approve sent again gets that outcome, and the actions never run twice.

ALTER TABLE approvals ADD COLUMN outcome TEXT NOT NULL DEFAULT '';

--bun:split

ALTER TABLE approvals ADD COLUMN answered_at TIMESTAMPTZ;
