-- Search by part of a nickname or a title in the operators' console, at any length. pg_trgm's index needs three
-- characters, and a Chinese name or word is often one or two (张, 兔子): such a search read all of members (0.7 s at
-- a million). Now the index holds every one- and two-character piece of the text, and a search asks for the pieces
-- of what was typed (server/db/list.ts `containsGrams`), then checks the rows with ILIKE as before.
-- Lower-cased, as ILIKE compares. IMMUTABLE: index expressions need it (lower() is). Changing a body later means
-- rebuilding the indexes on it (REINDEX). The pg_trgm indexes these replace are dropped at the end of 0039, after
-- every new index is built: a DROP INDEX locks its table against reads until the migrations being applied commit
-- (they run in one transaction).
CREATE OR REPLACE FUNCTION text_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  select coalesce(array_agg(distinct substr(s.l, i, n)), '{}')
  from (select lower(t) as l) s, generate_series(1, char_length(s.l)) i, (values (1), (2)) v(n)
  where i + n - 1 <= char_length(s.l)
$$;--> statement-breakpoint
-- The pieces a text containing `t` has for sure: its two-character ones (its character, when it has one; none for
-- an empty `t`, which every text contains).
CREATE OR REPLACE FUNCTION text_query_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  select case when char_length(s.l) < 2 then array_remove(array[s.l], '')
    else array(select distinct substr(s.l, i, 2) from generate_series(1, char_length(s.l) - 1) i) end
  from (select lower(t) as l) s
$$;--> statement-breakpoint
-- OR REPLACE and IF NOT EXISTS: a large deployment may create the functions and build the indexes CONCURRENTLY
-- beforehand (docs/deploy.md).
CREATE INDEX IF NOT EXISTS "courses_title_grams_idx" ON "courses" USING gin (text_grams("title"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "members_nickname_grams_idx" ON "members" USING gin (text_grams("nickname"));
