ALTER TABLE client_sessions DROP COLUMN key_id;
