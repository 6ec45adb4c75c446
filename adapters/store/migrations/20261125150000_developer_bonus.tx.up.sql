-- The developer bonus (the agent-tool protocol): when a key of the account first completed an MCP
-- initialize, and the client that did ("name version"). NULL: never.

ALTER TABLE accounts ADD COLUMN developer_since TIMESTAMPTZ;
ALTER TABLE accounts ADD COLUMN developer_client TEXT NOT NULL DEFAULT '';
