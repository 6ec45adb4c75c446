DROP TABLE IF EXISTS faqs;

--bun:split

DROP TABLE IF EXISTS chunks;

--bun:split

DROP TABLE IF EXISTS pages;

--bun:split

DROP TABLE IF EXISTS knowledge_state;

--bun:split

ALTER TABLE agents DROP COLUMN appearance;

--bun:split

ALTER TABLE agents DROP COLUMN contact;

--bun:split

ALTER TABLE agents DROP COLUMN instructions;

--bun:split

ALTER TABLE agents DROP COLUMN description;
