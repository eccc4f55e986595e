CREATE TABLE "search_words" (
	"word" text COLLATE "C" PRIMARY KEY NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_words_han_last_idx" ON "search_words" USING btree (right("word", 1)) WHERE "search_words"."kind" = 'han';--> statement-breakpoint
-- The vocabulary a misspelt search word is corrected against (docs/decisions/2026-11-26-search-typos.md): the
-- Latin words (three letters or more), pinyin runs and pairs of Chinese characters of course_terms, each once.
-- Every insert into course_terms adds its new words (a statement trigger: one pass over the inserted rows, in
-- word order, and existing words are left alone, so concurrent rebuilds never wait on each other's words). Words
-- whose last course went away are pruned by the app (search-index.ts).
CREATE FUNCTION search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word, kind)
  SELECT DISTINCT a.term,
    CASE WHEN a.term LIKE '~%' THEN 'pinyin' WHEN a.term ~ '^[a-z]' THEN 'latin' ELSE 'han' END
  FROM added a
  WHERE a.term ~ '^[a-z][a-z0-9]{2,}$' OR a.term ~ '^~[a-z]{2,}$'
    OR (char_length(a.term) = 2 AND a.term !~ '[[:ascii:]]')
  ORDER BY 1
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER course_terms_words AFTER INSERT ON course_terms REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();--> statement-breakpoint
INSERT INTO search_words (word, kind)
  SELECT DISTINCT term,
    CASE WHEN term LIKE '~%' THEN 'pinyin' WHEN term ~ '^[a-z]' THEN 'latin' ELSE 'han' END
  FROM course_terms
  WHERE term ~ '^[a-z][a-z0-9]{2,}$' OR term ~ '^~[a-z]{2,}$' OR (char_length(term) = 2 AND term !~ '[[:ascii:]]');
