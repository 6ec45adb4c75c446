ALTER TABLE accounts DROP COLUMN developer_client;
ALTER TABLE accounts DROP COLUMN developer_since;
