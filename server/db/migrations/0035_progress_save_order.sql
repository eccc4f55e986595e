-- Which player page view saved a position, and the save's number there, so that a late save of the same view
-- (a periodic save overtaken by the page-hide beacon) does not take the position back. Nullable without a default:
-- no table rewrite, even at ten million rows.
ALTER TABLE "study_progress" ADD COLUMN "saved_by" integer;--> statement-breakpoint
ALTER TABLE "study_progress" ADD COLUMN "save_seq" integer;