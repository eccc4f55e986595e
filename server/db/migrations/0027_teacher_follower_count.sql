ALTER TABLE "teachers" ADD COLUMN "follower_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "teachers" t SET "follower_count" = (SELECT count(*) FROM "follows" f WHERE f."teacher_id" = t."id");--> statement-breakpoint
CREATE FUNCTION teacher_followers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE teachers SET follower_count = follower_count - 1 WHERE id = OLD.teacher_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE teachers SET follower_count = follower_count + 1 WHERE id = NEW.teacher_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER teacher_followers_insert_delete AFTER INSERT OR DELETE ON follows
  FOR EACH ROW EXECUTE FUNCTION teacher_followers_changed();--> statement-breakpoint
CREATE TRIGGER teacher_followers_update AFTER UPDATE OF teacher_id ON follows
  FOR EACH ROW WHEN (OLD.teacher_id IS DISTINCT FROM NEW.teacher_id) EXECUTE FUNCTION teacher_followers_changed();
