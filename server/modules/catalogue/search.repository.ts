import type { DbOrTx } from '#server/db/database.ts'
import { prefixRangeSql } from '#server/db/list.ts'
import {
  preparedText,
  queryPrepared,
  shapedStatements,
  statementParameters,
  type PreparedText,
} from '#server/db/prepared.ts'
import { courseCardColumnsSql } from './catalogue.repository.ts'
import type { CourseCardSqlRow } from './present.ts'
import { weighted, type TermMatch, type WordQuery } from './search-text.ts'

export interface SearchAfter {
  score: number
  studentCount: number
  id: number
}

/** A word's best score: as written in the title (`wordScore`). */
export const TITLE_SCORE = 8

/**
 * The number of rows a search statement reads, written into its text: what a page asks for (its size and one more
 * row) rounded up to a few sizes, so that the `limit` a request gives does not make a statement text of its own.
 * The functions below read that many and return the `limit` asked for (the first of them, in the same order).
 */
const rowsRead = (limit: number) => [11, 21, 51].find((n) => n >= limit) ?? limit

/**
 * How well one word matches a course, from its document's head `s.head`: in the title as written (8) or as pinyin
 * (6), in the teacher's name or a tag (4, pinyin 3), in a category (2), else only in a lesson title (1).
 */
function wordScore(w: WordQuery, add: (value: string) => string) {
  const has = (q: string, weight: string) => `s.head @@ ${add(weighted(q, weight))}::tsquery`
  return `case when ${has(w.direct, 'A')} then ${TITLE_SCORE} when ${has(w.any, 'A')} then 6
    when ${has(w.direct, 'B')} then 4 when ${has(w.any, 'B')} then 3 when ${has(w.any, 'C')} then 2 else 1 end`
}

/** The statements of `searchCourses`, one per shape of keyword (how many words and whole phrases). */
const scoredStatement = shapedStatements('search_scored', 300)

/**
 * A page of published courses that every word matches somewhere (title, teacher, tags, categories, lesson
 * titles), best first: the sum of the words' scores, then the most learners. The GIN index on the documents
 * answers the match (Chinese characters and pairs, Latin word prefixes, pinyin); words of three or more Chinese
 * characters are then checked whole in the folded text. The page is chosen from the search table alone (it
 * carries the status and learners), and only its rows are joined to the courses, in one prepared statement.
 * Keyset paging on (score, student_count, id). The lesson titles come only for courses whose head does not match
 * every word: the lesson shown as the reason.
 */
export async function searchCourses(db: DbOrTx, words: WordQuery[], after: SearchAfter | undefined, limit: number) {
  const read = rowsRead(limit)
  const p = statementParameters()
  const add = (value: string) => p.add(value, 'text')
  const all = `${add(words.map((w) => weighted(w.any, '')).join(' & '))}::tsquery`
  const score = `(${words.map((w) => wordScore(w, add)).join(' + ')})`
  const phrases = words.flatMap((w) => w.phrases).map((phrase) => `and strpos(s.body, ${add(phrase)}) > 0`)
  const next = after
    ? `and (${score}, s.student_count, s.course_id) < (${p.add(after.score, 'int')}, ${p.add(after.studentCount, 'int')}, ${p.add(after.id, 'int')})`
    : ''
  const rows = await scoredStatement<SearchRow>(
    db,
    `with page as (
      select s.course_id, ${score} as score, s.student_count,
        case when not (s.head @@ ${all}) then s.lessons end as lessons
      from course_search s
      where s.doc @@ ${all} and s.published ${phrases.join(' ')} ${next}
      order by score desc, s.student_count desc, s.course_id desc limit ${read})
    ${cardsSelect('p.lessons', 'p.score')}
    order by p.score desc, c.student_count desc, c.id desc`,
    p.values,
  )
  return rows.slice(0, limit)
}

/** A row of search results: a course card, its category and the category's parent, its tags, and its score. */
export interface SearchRow extends CourseCardSqlRow {
  categoryName: string
  parentCategoryName: string | null
  tags: string[]
  /** The lesson titles, when a course is found only by them. */
  lessons: string[] | null
  score: number
}

/** The score of a term's tier (1 title … 4 lesson), as `wordScore` gives it. */
const tierScore = (pinyin: boolean) =>
  pinyin
    ? `(case tier when 1 then 6 when 2 then 3 when 3 then 2 else 1 end)`
    : `(case tier when 1 then 8 when 2 then 4 when 3 then 2 else 1 end)`

/** The index's order (course_terms_rank_idx): a term's best courses first. */
const rankOrder = 'order by tier, student_count desc nulls last, course_id desc nulls last'

/**
 * The text of a one-word page for terms of one shape (each exact or a prefix, written or pinyin; with or without a
 * cursor; the page size written in: a planner that knows it keeps one plan). Parameters: each term, then the
 * cursor (score, learners, id). Each term gives its best courses of the page's size, read in index order: an
 * exact term off its part of the index; a prefix term as the distinct terms it starts (a range of the vocabulary,
 * or one index probe at a time, a loose index scan: "pr" starts 3 terms but 16,000 rows), each read the same way,
 * so a common prefix never sorts all its rows. Pinyin (at most 6) cannot outrank a word in titles as written (8):
 * when those fill the page ("ps"), the pinyin terms are not read at all. The page is the best of those, with its cards.
 */
function rankedPageText(terms: TermMatch[], cursor: boolean, limit: number) {
  // Each value as a subquery the planner does not look into: the plan is the same whatever the term (its part of
  // the index, read in order), and PostgreSQL keeps its generic plan instead of planning each call for its values
  // (1–2 ms for a Latin word, more than running it).
  const [score_, learners, id] = [2, 3, 4].map((k) => `(select $${terms.length + k - 1}::int)`)
  const branch = (m: TermMatch, i: number, gate: string) => {
    const term = `(select $${1 + i}::text)`
    const score = tierScore(m.pinyin)
    const next = cursor
      ? `and (${score} < ${score_} or (${score} = ${score_} and (student_count, course_id) < (${learners}, ${id})))`
      : ''
    const best = (match: string) =>
      `select course_id, student_count, ${score} as score from course_terms where ${match} ${gate} ${next}
      ${rankOrder} limit ${limit}`
    if (!m.prefix) return `(${best(`term = ${term}`)})`
    const starting = prefixRangeSql('term', term)
    // The terms it starts: listed in the vocabulary when every such term is there (one range read), else found
    // one probe of course_terms at a time.
    const starts = inVocabulary(m)
      ? `select word as term from search_words where ${prefixRangeSql('word', term)} ${gate}`
      : `with recursive starts(term) as (
        select min(term) from course_terms where ${starting} ${gate}
        union all
        select (select min(term) from course_terms where term > s.term and ${starting}) from starts s where s.term is not null)
        select term from starts where term is not null`
    return `(select b.course_id, b.student_count, b.score from (${starts}) starts
      cross join lateral (${best('term = starts.term')}) b
      order by b.score desc, b.student_count desc, b.course_id desc limit ${limit})`
  }
  const written = terms.flatMap((m, i) => (m.pinyin ? [] : [branch(m, i, '')]))
  // Evaluated once (it refers to nothing outside): a condition on the pinyin terms that skips them.
  const room = `and (select count(distinct course_id) from written where score = ${TITLE_SCORE}) < ${limit}`
  const pinyin = terms.flatMap((m, i) => (m.pinyin ? [branch(m, i, room)] : []))
  return `with written as (${written.join(' union all ')}),
    page as (
      select course_id, max(score) as score, max(student_count) as student_count
      from (${['select * from written', ...pinyin].join(' union all ')}) t group by course_id
      order by 2 desc, 3 desc, 1 desc limit ${limit})
    ${cardsSelect('case when p.score = 1 then (select s.lessons from course_search s where s.course_id = c.id) end', 'p.score::int')}
    order by p.score desc, p.student_count desc, p.course_id desc`
}

/**
 * The select of a page's cards as `SearchRow`s, over a CTE `page` of course ids: the published courses' cards, their
 * category and its parent, their tags, and `lessons` and `score` as given (SQL over `p`, the page, and `c`).
 */
function cardsSelect(lessons: string, score: string) {
  return `select ${courseCardColumnsSql}, cat.name as "categoryName", pc.name as "parentCategoryName", c.tags,
      ${lessons} as lessons, ${score} as score
    from page p join courses c on c.id = p.course_id
      left join teachers t on t.id = c.teacher_id
      join categories cat on cat.id = c.category_id
      left join categories pc on pc.id = cat.parent_id
    where c.status = 'published'`
}

/**
 * Whether every term a prefix starts is in the vocabulary (search_words; its trigger in migration 0032 adds the
 * terms of three or more characters that start with a letter, and full pinyin of two letters or more): then those
 * terms are one range of its primary key, where finding them in course_terms takes one index probe per term ("~tiaose"
 * starts 138). Words of deleted courses stay in the vocabulary: their probes find nothing.
 */
function inVocabulary(m: TermMatch) {
  return m.prefix && (/^[a-z][a-z0-9]{2,}$/.test(m.term) || /^~[a-z]{2,}$/.test(m.term))
}

/** The prepared statements of `rankedPage`, one per shape of terms: a handful (a Chinese word; a Latin word). */
const rankedPageStatements = new Map<string, PreparedText>()

/**
 * One page of result rows for a word that is one term or a few prefixes, best first, in one prepared statement:
 * each term's best courses read off the course_terms index in rank order, without touching the others however many
 * there are, and the page's cards. Keyset on (score, learners, id).
 */
export async function rankedPage(db: DbOrTx, terms: TermMatch[], after: SearchAfter | undefined, limit: number) {
  const read = rowsRead(limit)
  const kind = (m: TermMatch) => (inVocabulary(m) ? 'v' : m.prefix ? 'p' : 'e') + (m.pinyin ? 'y' : 'w')
  const shape = `${terms.map(kind).join('')}_${read}${after ? '_a' : ''}`
  let statement = rankedPageStatements.get(shape)
  if (!statement) {
    statement = preparedText(`search_ranked_${shape}`, rankedPageText(terms, after !== undefined, read))
    rankedPageStatements.set(shape, statement)
  }
  const cursor = after ? [after.score, after.studentCount, after.id] : []
  return (await queryPrepared<SearchRow>(db, statement, [...terms.map((m) => m.term), ...cursor])).slice(0, limit)
}

/** How many title courses of each term merged in a title search are read, at most, before it gives up. */
const TITLE_SCAN = 4000
/** How many courses a title search probes for the other words when no word has a single term, at most. */
const TITLE_PROBED = 1000

/**
 * The statements of `titlePage`, one per shape of keyword (its words and their kinds, a cursor or none, `rowsRead`):
 * learners' keywords take few shapes; a long run of Chinese characters is a shape of its own.
 */
const titleStatement = shapedStatements('search_title', 300)

/**
 * The cards of the published courses that have every word in the title as written (each word's best score, 8: no
 * course ranks above them), most learners first, in one statement. The first single term of each word (a Chinese
 * character or pair, a number or a letter) has its title courses in course_terms in learners order: those lists are
 * merged, read in step until the page is full, so "入门 剪辑" reads a few hundred index entries of each instead of
 * probing every course of one for the other. Words with several terms (a Latin word's prefix and aliases) are
 * probed for each course the merge gives, or drive the read when no word has a single term; words of three or more
 * Chinese characters are then checked whole. Reads at most TITLE_SCAN courses of each list: a short page means "not
 * known to be full", not "no more".
 */
export async function titlePage(
  db: DbOrTx,
  words: WordQuery[],
  after: Omit<SearchAfter, 'score'> | undefined,
  limit: number,
): Promise<SearchRow[]> {
  const p = statementParameters()
  const match = (m: TermMatch, column = 'term') =>
    m.prefix ? prefixRangeSql(column, p.add(m.term, 'text')) : `${column} = ${p.add(m.term, 'text')}`
  const next = () =>
    after ? `and (student_count, course_id) < (${p.add(after.studentCount, 'int')}, ${p.add(after.id, 'int')})` : ''
  const order = 'order by student_count desc nulls last, course_id desc nulls last'
  // The first single term of each word is merged; a word's other pairs (基础 of 零基础) nearly always go with it and
  // are probed, after the words with several terms.
  const single = (g: TermMatch[]) => g.length === 1 && !g[0]!.prefix
  const lists = new Set<string>()
  const rest: TermMatch[][] = []
  const samePairs: TermMatch[][] = []
  for (const w of words) {
    const at = w.written.findIndex(single)
    w.written.forEach((g, i) => (i === at ? lists.add(g[0]!.term) : (single(g) ? samePairs : rest).push(g)))
  }
  rest.push(...samePairs)
  const read = (where: string, limit_: number) =>
    `(select course_id, student_count from course_terms where ${where} and tier = 1 ${next()} ${order} limit ${limit_})`
  let from: string
  if (lists.size > 0) {
    // A merge join of the lists on (learners, id), the order each is read in. `offset 0`: the probes below run on
    // what the merge gives, not on every course of one list before it.
    const merged = [...lists]
      .map((term, i) => {
        const list = read(match({ term, prefix: false, pinyin: false }), TITLE_SCAN)
        return i === 0
          ? `${list} d`
          : `join ${list} d${i} on d${i}.student_count = d.student_count and d${i}.course_id = d.course_id`
      })
      .join('\n')
    from = `(select d.course_id, d.student_count from ${merged}
      order by d.student_count desc nulls last, d.course_id desc nulls last offset 0) d`
  } else {
    // No word with a single term: the first word's terms drive (each read in order, then merged without repeats),
    // the others are probed.
    const first = rest.shift()!
    from = `(select course_id, student_count from (${first.map((m) => read(match(m), TITLE_PROBED)).join(' union all ')}) u
      group by course_id, student_count ${order} limit ${TITLE_PROBED}) d`
  }
  // One probe of the course's title terms (course_terms_title_idx) per course read, for a word or a prefix alike.
  // `offset 0` keeps the planner from turning the probe into a hash of every title course of the term, read in full.
  const has = (m: TermMatch) => `exists (select 1 from course_terms t
    where t.course_id = d.course_id and t.tier = 1 and ${match(m, 't.term')} offset 0)`
  // Each probed term is in some title at all, checked once before a course is read (a one-time filter): one no
  // title has (透式 of the misspelt 数据透式表) ends the search at once, not after a probe of every course read.
  const inSomeTitle = (g: TermMatch[]) =>
    `(${g.map((m) => `exists (select 1 from course_terms where ${match(m)} and tier = 1)`).join(' or ')})`
  const phrases = words.flatMap((w) => w.phrases)
  const checks = [
    ...(rest.length > 0 ? [`(select ${rest.map(inSomeTitle).join(' and ')})`] : []),
    ...rest.map((g) => `(${g.map(has).join(' or ')})`),
    ...(phrases.length > 0
      ? [
          `exists (select 1 from course_search s where s.course_id = d.course_id and ${phrases
            .map((phrase) => `strpos(s.body, ${p.add(phrase, 'text')}) > 0`)
            .join(' and ')})`,
        ]
      : []),
  ]
  const top = TITLE_SCORE * words.length
  const rows = await titleStatement<SearchRow>(
    db,
    `with page as (
      select d.course_id, d.student_count from ${from}
      ${checks.length > 0 ? `where ${checks.join(' and ')}` : ''}
      order by d.student_count desc nulls last, d.course_id desc nulls last limit ${rowsRead(limit)})
    ${cardsSelect('null::text[]', String(top))}
    order by p.student_count desc, p.course_id desc`,
    p.values,
  )
  return rows.slice(0, limit)
}
