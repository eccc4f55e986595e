-- Console reads that read a whole large table at the scale seed (docs/decisions/2026-11-28-console-text-search.md,
-- "Other console reads"). IF NOT EXISTS: a large deployment may build these CONCURRENTLY beforehand
-- (docs/deploy.md).
-- The dashboard's learners of a period, counted from the index (index-only where the table is all-visible):
-- (updated_at, member_id) in place of updated_at.
CREATE INDEX IF NOT EXISTS "study_progress_updated_member_idx" ON "study_progress" USING btree ("updated_at","member_id");--> statement-breakpoint
-- Moderation: every comment of a course (replies and lesson comments too), or in a status, newest first.
CREATE INDEX IF NOT EXISTS "comments_course_all_idx" ON "comments" USING btree ("course_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "comments_status_idx" ON "comments" USING btree ("status","id");--> statement-breakpoint
-- The indexes 0037–0039 replace, dropped after every new one is built: a DROP INDEX locks its table against reads
-- until the migrations being applied commit (they run in one transaction), so they come last.
DROP INDEX IF EXISTS "study_progress_updated_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "courses_title_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "members_nickname_trgm_idx";
