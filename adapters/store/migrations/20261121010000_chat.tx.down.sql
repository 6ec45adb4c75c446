DROP TABLE IF EXISTS bookings;

--bun:split

DROP TABLE IF EXISTS client_sessions;

--bun:split

DROP TABLE IF EXISTS reply_jobs;

--bun:split

DROP TABLE IF EXISTS messages;

--bun:split

DROP TABLE IF EXISTS conversations;
