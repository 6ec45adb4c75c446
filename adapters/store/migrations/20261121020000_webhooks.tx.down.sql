DROP TABLE IF EXISTS service_settings;

--bun:split

DROP TABLE IF EXISTS notifications;

--bun:split

DROP TABLE IF EXISTS conversions;

--bun:split

DROP TABLE IF EXISTS webhook_deliveries;

--bun:split

DROP TABLE IF EXISTS webhooks;
