-- 0037's piece index for the other two texts the console searches: lesson titles (媒体) and comments (moderation).
-- At the scale seed (571,692 lessons, 500,009 comments) each search read its whole table. IF NOT EXISTS: a large
-- deployment may build them CONCURRENTLY beforehand (docs/deploy.md). The pg_trgm indexes they replace are dropped at
-- the end of 0039.
CREATE INDEX IF NOT EXISTS "videos_title_grams_idx" ON "videos" USING gin (text_grams("title"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "comments_content_grams_idx" ON "comments" USING gin (text_grams("content"));
