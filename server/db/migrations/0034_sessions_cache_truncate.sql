-- A TRUNCATE of sessions (directly, or through `truncate members … cascade`, as the scale seed does) fires no row
-- trigger: it tells every process to forget every remembered session (the tag `sessions:all`; see 0033 and
-- server/modules/sessions/session-cache.ts).
CREATE FUNCTION sessions_cache_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('zixue_cache', '["sessions:all"]');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sessions_cache_notify_all AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_cache_notify_all();
