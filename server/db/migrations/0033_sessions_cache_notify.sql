-- Processes remember the session a token names for a short while (docs/decisions/2026-11-27-session-cache.md).
-- Any change to a session row — a logout, a revoke, an expiry moved, a member deleted with their sessions, by the
-- app or by hand — tells every process to forget it: a notification on the cache bus (server/db/cache-bus.ts),
-- sent when the transaction commits, with the tag `session:<token hash>` that the token lookup drops.
CREATE FUNCTION sessions_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('zixue_cache', json_build_array('session:' || OLD.token_hash)::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sessions_cache_notify AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_cache_notify();
