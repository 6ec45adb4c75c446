DROP TABLE IF EXISTS assistant_conversations;
