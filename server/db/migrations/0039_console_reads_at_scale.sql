-- Console reads that read a whole large table at the scale seed (docs/decisions/2026-11-28-console-text-search.md,
-- "Other console reads"). IF NOT EXISTS: a large deployment may build these CONCURRENTLY beforehand
-- (docs/deploy.md); the old index is dropped last, so the lock that takes (reads wait too) is short.
-- The dashboard's learners of a period, read from the index alone: (updated_at, member_id) in place of updated_at.
CREATE INDEX IF NOT EXISTS "study_progress_updated_member_idx" ON "study_progress" USING btree ("updated_at","member_id");--> statement-breakpoint
-- Moderation: every comment of a course (replies and lesson comments too), or in a status, newest first.
CREATE INDEX IF NOT EXISTS "comments_course_all_idx" ON "comments" USING btree ("course_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "comments_status_idx" ON "comments" USING btree ("status","id");--> statement-breakpoint
DROP INDEX IF EXISTS "study_progress_updated_idx";
