DROP TABLE IF EXISTS auth_changes;
