-- The records of inbound messages are kept for a while only (domain/messaging.InboxKeep): a
-- Telegram update's for two days, a WhatsApp message's for eight; the sweep deletes them by
-- received_at. Telegram's keys name the bot from now on ("telegram:<bot id>:<update_id>"); the
-- records under the former keys ("telegram:<update_id>") match no new key and are swept as the
-- others.

CREATE INDEX IF NOT EXISTS messaging_inbox_received ON messaging_inbox (received_at);
