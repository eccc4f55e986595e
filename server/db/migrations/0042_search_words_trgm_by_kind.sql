DROP INDEX "search_words_trgm_idx";--> statement-breakpoint
CREATE INDEX "search_words_latin_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WHERE "search_words"."kind" = 'latin';--> statement-breakpoint
CREATE INDEX "search_words_pinyin_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WHERE "search_words"."kind" = 'pinyin';