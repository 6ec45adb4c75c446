DROP INDEX IF EXISTS messaging_inbox_received;
