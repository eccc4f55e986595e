-- A course's title terms by course: a several-word search checks each candidate course for the other words in its
-- title (a word, or a word starting so) with one probe of this index. Tier-1 rows only: a quarter of the table.
-- IF NOT EXISTS: a large deployment may build it CONCURRENTLY beforehand (docs/deploy.md).
CREATE INDEX IF NOT EXISTS "course_terms_title_idx" ON "course_terms" USING btree ("course_id","term") WHERE "course_terms"."tier" = 1;