-- Each client session records the API key that created it, so that revoking the key revokes its
-- sessions: authenticating a client token joins the key and refuses it when the key is revoked.
-- Sessions made before this migration have no key ('') and live out their (at most 24 h) lifetime.

ALTER TABLE client_sessions ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
