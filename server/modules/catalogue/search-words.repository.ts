import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { prefixRangeSql } from '#server/db/list.ts'
import { preparedText, queryPrepared } from '#server/db/prepared.ts'
import type { TermMatch } from './search-text.ts'

// The vocabulary a misspelt search word is corrected against (search_words, migration 0032): its lookups, and the
// checks of what a word or a corrected Chinese word would find. docs/decisions/2026-11-26-search-typos.md.

// Each lookup is one prepared statement (server/db/prepared.ts), those of several words over arrays whatever their
// number: a correction sends several, and planning each afresh cost as much as running it.

const anyTermStatement = preparedText(
  'search_any_term',
  `select exists (select 1 from course_terms where term = any($1::text[]))
    or exists (select 1 from unnest($2::text[]) p(term)
      where exists (select 1 from course_terms where ${prefixRangeSql('term', 'p.term')})) as found`,
)

/** Whether a word's terms (the word, its aliases, its pinyin) are in any published course. */
export async function anyTermExists(db: DbOrTx, terms: TermMatch[]) {
  const exact = terms.filter((m) => !m.prefix).map((m) => m.term)
  const prefixes = terms.filter((m) => m.prefix).map((m) => m.term)
  const [row] = await queryPrepared<{ found: boolean }>(db, anyTermStatement, [exact, prefixes])
  return row!.found
}

const candidatesStatement = preparedText(
  'search_spelt_like',
  // Three reads in one statement, where two statements on two connections took twice the fixed cost of one. The
  // pinyin start is compared as `left(…)`, which no index serves: as a range of the primary key, the generic plan
  // reads every run of the letter (2,000 at scale) instead of the trigram index's few.
  `select word, pinyin from (
      (select word, false as pinyin, 0::bigint as n from search_words
        where kind = 'latin' and word % $1::text order by similarity(word, $1::text) desc limit 20)
      union
      (select word, false, 0 from search_words where kind = 'latin' and ${prefixRangeSql('word', '$2::text')}
        and char_length(word) between $3::int and $4::int limit 200)
      union all
      (select substr(word, 2), true,
          row_number() over (order by word_similarity($1::text, word) desc, char_length(word), word)
        from search_words where kind = 'pinyin' and $1::text <% word and left(word, 2) = $5::text order by 3 limit 300)
    ) c order by pinyin, n`,
)

/**
 * What a misspelt Latin word may have meant, read in one statement:
 * - `latin`: known Latin words spelt like it: trigram-similar ones (pg_trgm's `%`, through the GIN index), and those
 *   of about the same length with the same first letter (a swap inside a short word shares few trigrams: "fimga");
 * - `pinyin`: known pinyin runs (each spells up to four characters from a start, marked `~` in the vocabulary; here
 *   without it) that start with the word's first letter and contain something spelt like it: pg_trgm's word
 *   similarity (`<%`, through the GIN index), best first. The app's connections set its threshold to 0.4
 *   (server/db/database.ts): pg_trgm's default 0.6 misses "tiose" (tiaose).
 */
export async function spellingCandidates(db: DbOrTx, word: string): Promise<{ latin: string[]; pinyin: string[] }> {
  const rows = await queryPrepared<{ word: string; pinyin: boolean }>(db, candidatesStatement, [
    word,
    word.slice(0, 1),
    word.length - 1,
    word.length + 1,
    // The run is read as the word's start (a corrected prefix), so it starts with the same letter: `~` and the letter.
    `~${word.slice(0, 1)}`,
  ])
  return {
    latin: rows.filter((r) => !r.pinyin).map((r) => r.word),
    pinyin: rows.filter((r) => r.pinyin).map((r) => r.word),
  }
}

const countsStatement = preparedText(
  'search_term_counts',
  `select u.term, (select count(*) from (select 1 from course_terms where term = u.term limit 1000) x)::int as n
    from unnest($1::text[]) u(term)`,
)

/** How many published courses have each term, counted up to 1,000 (enough to tell common words from rare ones). */
export async function courseCounts(db: DbOrTx, terms: string[]): Promise<Map<string, number>> {
  if (terms.length === 0) return new Map()
  const rows = await queryPrepared<{ term: string; n: number }>(db, countsStatement, [terms])
  return new Map(rows.map((r) => [r.term, r.n]))
}

const pairsStatement = preparedText('search_known_pairs', 'select word from search_words where word = any($1::text[])')

/** Which of these pairs of Chinese characters some published course has. */
export async function knownPairs(db: DbOrTx, pairs: string[]) {
  const rows = await queryPrepared<{ word: string }>(db, pairsStatement, [pairs])
  return new Set(rows.map((r) => r.word))
}

/** Pairs of Chinese characters starting with $1 (`a`). */
const startingWith = `a.kind = 'han' and ${prefixRangeSql('a.word', '$1::text')}`
const betweenStatements = {
  before: preparedText(
    'search_chars_before',
    `select left(a.word, 1) as x from search_words a where a.kind = 'han' and right(a.word, 1) = $1::text limit 200`,
  ),
  after: preparedText(
    'search_chars_after',
    `select right(a.word, 1) as x from search_words a where ${startingWith} limit 200`,
  ),
  between: preparedText(
    'search_chars_between',
    `select right(a.word, 1) as x from search_words a
      join search_words b on b.kind = 'han' and b.word = right(a.word, 1) || $2::text
      where ${startingWith} limit 200`,
  ),
}

/**
 * The characters x that fit between `left` and `right` (either may be absent at the word's ends): the pairs
 * left+x and x+right are both known.
 */
export async function charactersBetween(db: DbOrTx, left: string | null, right: string | null): Promise<string[]> {
  const [statement, values] = !left
    ? [betweenStatements.before, [right]]
    : !right
      ? [betweenStatements.after, [left]]
      : [betweenStatements.between, [left, right]]
  const rows = await queryPrepared<{ x: string }>(db, statement, values)
  return rows.map((r) => r.x)
}

const firstFoundStatement = preparedText(
  'search_first_word_found',
  // The words are read in the order given (a function scan reads unnest's rows in order) and the read stops at the
  // first found, the likeliest correction being first: each check builds the bitmap of every course with all the
  // word's pairs (1.7 ms for 数据透视表's four at 100,000 courses), so each reading left unchecked saves one.
  `select u.word from unnest($1::text[], $2::text[]) u(word, query)
    where exists (select 1 from course_search s
      where s.doc @@ u.query::tsquery and s.published and strpos(s.body, u.word) > 0)
    limit 1`,
)

/**
 * The first of these Chinese words that some published course has whole, in any field (or null): each word's pairs
 * through the GIN index (`all`: its tsquery), then the word in the folded text.
 */
export async function firstWordFound(db: DbOrTx, words: { word: string; all: string }[]): Promise<string | null> {
  if (words.length === 0) return null
  const rows = await queryPrepared<{ word: string }>(db, firstFoundStatement, [
    words.map((w) => w.word),
    words.map((w) => w.all),
  ])
  return rows[0]?.word ?? null
}

/** Words no published course has any more, removed from the vocabulary. Returns how many. */
export async function pruneSearchWords(db: DbOrTx) {
  const result = await db.execute(sql`
    delete from search_words w where not exists (select 1 from course_terms t where t.term = w.word)`)
  return result.rowCount ?? 0
}
