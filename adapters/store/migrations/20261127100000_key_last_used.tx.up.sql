-- When each API key last authenticated a request (NULL: never), written at most once a minute per
-- key and process, off the request path, for the console's API keys page.

ALTER TABLE api_keys ADD COLUMN last_used_at TIMESTAMPTZ;
