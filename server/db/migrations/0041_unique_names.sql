-- Names learners would see twice are refused (server/db/schema/columns.ts `sameName`: case and spaces ignored):
-- sibling categories, hot words, and VIP plans on sale. A database that already holds such twins keeps the first
-- of each (lowest id) as it is; a later twin hot word is dropped (the same word twice says nothing more), a later
-- twin category or plan on sale gets its id appended to its name (「软件（#12）」) for an operator to rename or merge.
DELETE FROM "hot_words" w USING "hot_words" f
  WHERE f."id" < w."id" AND lower(regexp_replace(f."word", '[\s\u3000\u00a0]', '', 'g')) = lower(regexp_replace(w."word", '[\s\u3000\u00a0]', '', 'g'));--> statement-breakpoint
UPDATE "categories" c SET "name" = c."name" || '（#' || c."id" || '）'
  WHERE EXISTS (SELECT 1 FROM "categories" f WHERE f."id" < c."id" AND coalesce(f."parent_id", 0) = coalesce(c."parent_id", 0)
    AND lower(regexp_replace(f."name", '[\s\u3000\u00a0]', '', 'g')) = lower(regexp_replace(c."name", '[\s\u3000\u00a0]', '', 'g')));--> statement-breakpoint
UPDATE "vip_plans" p SET "name" = p."name" || '（#' || p."id" || '）'
  WHERE p."active" AND EXISTS (SELECT 1 FROM "vip_plans" f WHERE f."id" < p."id" AND f."active"
    AND lower(regexp_replace(f."name", '[\s\u3000\u00a0]', '', 'g')) = lower(regexp_replace(p."name", '[\s\u3000\u00a0]', '', 'g')));--> statement-breakpoint
CREATE UNIQUE INDEX "categories_sibling_name_key" ON "categories" USING btree (coalesce("parent_id", 0),lower(regexp_replace("name", '[\s\u3000\u00a0]', '', 'g')));--> statement-breakpoint
CREATE UNIQUE INDEX "hot_words_word_key" ON "hot_words" USING btree (lower(regexp_replace("word", '[\s\u3000\u00a0]', '', 'g')));--> statement-breakpoint
CREATE UNIQUE INDEX "vip_plans_active_name_key" ON "vip_plans" USING btree (lower(regexp_replace("name", '[\s\u3000\u00a0]', '', 'g'))) WHERE "vip_plans"."active";
