import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { TermMatch } from './search-text.ts'

// The vocabulary a misspelt search word is corrected against (search_words, migration 0032): its lookups, and the
// checks of what a word or a corrected Chinese word would find. docs/decisions/2026-11-26-search-typos.md.

/** The end of a range of words starting with a prefix (in the "C" collation, above every character). */
const END = '\u{10ffff}'

const termMatch = (m: TermMatch) =>
  m.prefix ? sql`term >= ${m.term} and term < ${m.term + END}` : sql`term = ${m.term}`

/** Whether a word's terms (the word, its aliases, its pinyin) are in any published course. */
export async function anyTermExists(db: DbOrTx, terms: TermMatch[]) {
  const probes = terms.map((m) => sql`exists (select 1 from course_terms where ${termMatch(m)})`)
  const { rows } = await db.execute<{ found: boolean }>(sql`select ${sql.join(probes, sql` or `)} as found`)
  return rows[0]!.found
}

/**
 * Known Latin words spelt like `word`: trigram-similar ones (pg_trgm's `%`, through the GIN index), and those of
 * about the same length with the same first letter (a swap inside a short word shares few trigrams: "fimga").
 */
export async function latinCandidates(db: DbOrTx, word: string): Promise<string[]> {
  const first = word.slice(0, 1)
  const { rows } = await db.execute<{ word: string }>(sql`
    (select word from search_words where kind = 'latin' and word % ${word}
      order by similarity(word, ${word}) desc limit 20)
    union
    (select word from search_words where kind = 'latin' and word >= ${first} and word < ${first + END}
      and char_length(word) between ${word.length - 1} and ${word.length + 1} limit 200)`)
  return rows.map((r) => r.word)
}

/** How many published courses have each term, counted up to 1,000 (enough to tell common words from rare ones). */
export async function courseCounts(db: DbOrTx, terms: string[]): Promise<Map<string, number>> {
  if (terms.length === 0) return new Map()
  const counts = terms.map(
    (t) =>
      sql`select ${t}::text as term, (select count(*) from (select 1 from course_terms where term = ${t} limit 1000) x)::int as n`,
  )
  const { rows } = await db.execute<{ term: string; n: number }>(sql.join(counts, sql` union all `))
  return new Map(rows.map((r) => [r.term, r.n]))
}

/** How much of a pinyin word's trigrams a run must share: below pg_trgm's 0.6, which misses "tiose" (tiaose). */
const PINYIN_SIMILARITY = 0.4

/**
 * Known pinyin runs (each spells up to four characters from a start, marked `~`) that start with the word's first
 * letter and contain something spelt like it: pg_trgm's word similarity (`<%`, through the GIN index), best first.
 */
export async function pinyinCandidates(db: Db, word: string): Promise<string[]> {
  // The run is read as the word's start (a corrected prefix), so it starts with the same letter.
  const start = `~${word.slice(0, 1)}`
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local pg_trgm.word_similarity_threshold = ${PINYIN_SIMILARITY}`))
    const { rows } = await tx.execute<{ word: string }>(sql`
      select word from search_words where kind = 'pinyin' and ${word} <% word
        and word >= ${start} and word < ${start + END}
      order by word_similarity(${word}, word) desc, char_length(word), word limit 300`)
    return rows
  })
  return rows.map((r) => r.word.slice(1))
}

/** Which of these pairs of Chinese characters some published course has. */
export async function knownPairs(db: DbOrTx, pairs: string[]) {
  const { rows } = await db.execute<{ word: string }>(
    sql`select word from search_words where word in (${sql.join(
      pairs.map((p) => sql`${p}`),
      sql`, `,
    )})`,
  )
  return new Set(rows.map((r) => r.word))
}

/**
 * The characters x that fit between `left` and `right` (either may be absent at the word's ends): the pairs
 * left+x and x+right are both known.
 */
export async function charactersBetween(db: DbOrTx, left: string | null, right: string | null): Promise<string[]> {
  const starting = (l: string) => sql`a.kind = 'han' and a.word >= ${l} and a.word < ${l + END}`
  const query = !left
    ? sql`select left(a.word, 1) as x from search_words a where a.kind = 'han' and right(a.word, 1) = ${right} limit 200`
    : !right
      ? sql`select right(a.word, 1) as x from search_words a where ${starting(left)} limit 200`
      : sql`select right(a.word, 1) as x from search_words a
          join search_words b on b.kind = 'han' and b.word = right(a.word, 1) || ${right}
          where ${starting(left)} limit 200`
  const { rows } = await db.execute<{ x: string }>(query)
  return rows.map((r) => r.x)
}

/**
 * Which of these Chinese words some published course has whole, in any field: each word's pairs through the GIN
 * index (`all`: its tsquery), then the word in the folded text.
 */
export async function wordsFound(db: DbOrTx, words: { word: string; all: string }[]) {
  if (words.length === 0) return new Set<string>()
  const checks = words.map(
    (w) => sql`select ${w.word}::text as word where exists (select 1 from course_search s
      where s.doc @@ ${w.all}::tsquery and s.published and strpos(s.body, ${w.word}) > 0)`,
  )
  const { rows } = await db.execute<{ word: string }>(sql.join(checks, sql` union all `))
  return new Set(rows.map((r) => r.word))
}

/** Words no published course has any more, removed from the vocabulary. Returns how many. */
export async function pruneSearchWords(db: DbOrTx) {
  const result = await db.execute(sql`
    delete from search_words w where not exists (select 1 from course_terms t where t.term = w.word)`)
  return result.rowCount ?? 0
}
