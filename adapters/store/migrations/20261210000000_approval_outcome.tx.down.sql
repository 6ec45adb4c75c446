ALTER TABLE approvals DROP COLUMN answered_at;

--bun:split

ALTER TABLE approvals DROP COLUMN outcome;
