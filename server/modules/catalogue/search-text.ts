// The text side of course search (docs/decisions/2026-11-25-search.md): how a course's searchable fields become a
// PostgreSQL tsvector at write time, how a keyword becomes a tsquery, and where a word occurs in a field for the
// highlights. Pure functions; pinyin-pro supplies the readings of Chinese characters.
import { pinyin } from 'pinyin-pro'

/** A run of Chinese characters, or of Latin letters and digits: the two kinds of token. */
const tokenPattern = /(\p{Script=Han}+)|([a-z0-9]+)/gu

/**
 * Characters NFKC leaves as they are, so a text of only these folds by lower-casing: printable ASCII, tabs and line
 * breaks, the common CJK ideographs and the CJK punctuation 、。〃〄々〆〇〈〉《》「」『』【】 (search.test.ts checks
 * each of them). Most titles and lesson names are such texts, and normalising is the costlier half of folding.
 */
export const NFKC_STABLE = /^[\t\n\r\u0020-\u007e\u3001-\u3011\u4e00-\u9fff]*$/

/** Full-width letters and digits to ASCII, lower case (NFKC, per character so that offsets stay the same). */
export function fold(text: string): string {
  if (NFKC_STABLE.test(text)) return text.toLowerCase()
  const whole = text.normalize('NFKC').toLowerCase()
  if (whole.length === text.length) return whole
  let out = ''
  for (const ch of text) {
    const f = ch.normalize('NFKC').toLowerCase()
    out += f.length === ch.length ? f : ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch
  }
  return out
}

interface Token {
  kind: 'han' | 'latin'
  text: string
  start: number
}

function tokens(folded: string): Token[] {
  const out: Token[] = []
  for (const m of folded.matchAll(tokenPattern)) out.push({ kind: m[1] ? 'han' : 'latin', text: m[0], start: m.index })
  return out
}

/**
 * Software people name by a short form: a course about Photoshop is found by "ps". Both directions are indexed
 * (a title that says "PS" is found by "photoshop" too).
 */
const aliases: Record<string, string[]> = {
  photoshop: ['ps'],
  illustrator: ['ai'],
  premiere: ['pr'],
  aftereffects: ['ae'],
  autocad: ['cad'],
  cinema4d: ['c4d'],
  powerpoint: ['ppt'],
}
const aliasOf = new Map<string, string[]>()
for (const [long, shorts] of Object.entries(aliases)) {
  aliasOf.set(long, [...(aliasOf.get(long) ?? []), ...shorts])
  for (const s of shorts) aliasOf.set(s, [...(aliasOf.get(s) ?? []), long])
}

/** Two-word names written apart ("After Effects", "Cinema 4D") joined, so their aliases apply. */
function latinWords(toks: Token[]): string[] {
  const words: string[] = []
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!
    if (t.kind !== 'latin') continue
    words.push(t.text)
    const next = toks[i + 1]
    if (next?.kind === 'latin' && aliases[t.text + next.text]) words.push(t.text + next.text)
  }
  return words
}

/** Syllables of a run of Chinese characters, one per character ("lv" for 绿). */
export function syllables(run: string): string[] {
  const known = readings.get(run)
  if (known) return known
  const out = pinyin(run, { type: 'array', toneType: 'none', v: true })
  const result = out.length === [...run].length ? out : []
  if (readings.size >= READINGS_MAX) readings.clear()
  readings.set(run, result)
  return result
}

/** Names, categories and common words recur across courses: their readings are remembered (bounded). */
const readings = new Map<string, string[]>()
const READINGS_MAX = 20_000

/** How many characters of pinyin one lexeme spells from a starting character: enough for any search word. */
const PINYIN_SPAN = 4
/** Pinyin lexemes are marked so that a Latin word can rank its direct matches above its pinyin ones. */
const FULL = '~'
const INITIALS = '^'

type Weight = 'A' | 'B' | 'C' | 'D'

/** The lexemes of one field's text: characters and character pairs, Latin words and their aliases, and pinyin. */
function fieldLexemes(text: string, withPinyin: boolean, into: Set<string>) {
  const toks = tokens(fold(text))
  for (const t of toks) {
    if (t.kind !== 'han') continue
    const chars = [...t.text]
    for (let i = 0; i < chars.length; i++) {
      into.add(chars[i]!)
      if (i + 1 < chars.length) into.add(chars[i]! + chars[i + 1]!)
    }
    if (!withPinyin) continue
    const s = syllables(t.text)
    for (let i = 0; i < s.length; i++) {
      const span = s.slice(i, i + PINYIN_SPAN)
      into.add(FULL + span.join(''))
      into.add(INITIALS + span.map((x) => x[0]).join(''))
    }
  }
  for (const w of latinWords(toks)) {
    into.add(w)
    for (const a of aliasOf.get(w) ?? []) into.add(a)
  }
}

const quote = (lexeme: string) => `'${lexeme.replace(/['\\]/g, (c) => `\\${c}`)}'`

/** A tsvector literal: every lexeme of each field at position 1 with the field's weight (A title … D lessons). */
function tsvectorLiteral(fields: [Weight, Set<string>][]) {
  const weights = new Map<string, Set<Weight>>()
  for (const [w, lexemes] of fields)
    for (const l of lexemes) {
      const set = weights.get(l) ?? new Set()
      set.add(w)
      weights.set(l, set)
    }
  return [...weights].map(([l, ws]) => `${quote(l)}:${[...ws].map((w) => `1${w}`).join(',')}`).join(' ')
}

export interface SearchSource {
  title: string
  teacherName: string | null
  tags: readonly string[]
  categoryNames: readonly (string | null)[]
  /** Chapter and video titles. */
  lessons: readonly string[]
}

export interface SearchDocument {
  /** Title (A), teacher and tags (B), categories (C): what ranks a match. */
  head: string
  /** `head` and the lessons (D): what is matched. */
  doc: string
  /** Every field folded, one per line: where words of three or more Chinese characters are checked whole. */
  body: string
}

/** The search document of a course, built when the course or anything it shows changes. */
export function searchDocument(s: SearchSource): SearchDocument {
  const title = new Set<string>()
  fieldLexemes(s.title, true, title)
  const people = new Set<string>()
  if (s.teacherName) fieldLexemes(s.teacherName, true, people)
  for (const tag of s.tags) fieldLexemes(tag, true, people)
  const category = new Set<string>()
  for (const c of s.categoryNames) if (c) fieldLexemes(c, true, category)
  const lessons = new Set<string>()
  for (const l of s.lessons) fieldLexemes(l, false, lessons)
  const head: [Weight, Set<string>][] = [
    ['A', title],
    ['B', people],
    ['C', category],
  ]
  const fields = [s.title, s.teacherName ?? '', ...s.tags, ...s.categoryNames.map((c) => c ?? ''), ...s.lessons]
  return {
    head: tsvectorLiteral(head),
    doc: tsvectorLiteral([...head, ['D', lessons]]),
    body: fold(fields.join('\n')),
  }
}

/** One word of a keyword as tsqueries: all its matches, and those that are not pinyin (ranked higher). */
export interface WordQuery {
  /** tsquery text of every way the word matches, with `%W` where a weight restriction goes. */
  any: string
  direct: string
  /** Runs of three or more Chinese characters, checked whole against the folded text (bigrams only narrow). */
  phrases: string[]
  /** For a word of one token that is one term or a few prefixes: those, for the ranked term index (else null). */
  terms: TermMatch[] | null
  /**
   * The word as written (no pinyin) as terms: every group must match (a Chinese character or pair, a Latin
   * token), by one of its terms (the word or its start, its aliases). In the title, that is the word's best score.
   */
  written: TermMatch[][]
}

/** A term of course_terms, or every term it starts (`prefix`); pinyin ranks below what is written. */
export interface TermMatch {
  term: string
  prefix: boolean
  pinyin: boolean
}

const group = (parts: string[], op: ' & ' | ' | ') => (parts.length === 1 ? parts[0]! : `(${parts.join(op)})`)

/** The tsquery of one word (null when it has no letter, digit or Chinese character, like "%"). */
export function wordQuery(word: string): WordQuery | null {
  const toks = tokens(fold(word))
  if (toks.length === 0) return null
  const any: string[] = []
  const direct: string[] = []
  const phrases: string[] = []
  const written: TermMatch[][] = []
  let terms: TermMatch[] | null = null
  const only = toks.length === 1 ? toks[0]! : null
  for (const t of toks) {
    if (t.kind === 'han') {
      const chars = [...t.text]
      const grams =
        chars.length === 1
          ? chars
          : chars
              .slice(0, -1)
              .map((c, i) => c + chars[i + 1]!)
              .filter((g, i, a) => a.indexOf(g) === i)
      const q = group(
        grams.map((g) => `${quote(g)}%W`),
        ' & ',
      )
      any.push(q)
      direct.push(q)
      for (const g of grams) written.push([{ term: g, prefix: false, pinyin: false }])
      if (chars.length >= 3) phrases.push(t.text)
      else if (only) terms = [{ term: grams[0]!, prefix: false, pinyin: false }]
      continue
    }
    // A single letter is a word of its own ("C"); longer ones are prefixes ("photo" finds Photoshop) and pinyin,
    // full ("shuicai") or initials ("sc").
    const w = t.text
    const own = w.length === 1 || /^\d+$/.test(w) ? `${quote(w)}%W` : `${quote(w)}:*%W`
    const alts = [own, ...(aliasOf.get(w) ?? []).map((a) => `${quote(a)}%W`)]
    const pinyinAlts = /^[a-z]{2,}$/.test(w) ? [`${quote(FULL + w)}:*%W`, `${quote(INITIALS + w)}:*%W`] : []
    direct.push(group(alts, ' | '))
    any.push(group([...alts, ...pinyinAlts], ' | '))
    const exact = w.length === 1 || /^\d+$/.test(w)
    const asWritten = [
      { term: w, prefix: !exact, pinyin: false },
      ...(aliasOf.get(w) ?? []).map((a) => ({ term: a, prefix: false, pinyin: false })),
    ]
    written.push(asWritten)
    if (only) {
      terms = [
        ...asWritten,
        ...(pinyinAlts.length > 0
          ? [FULL, INITIALS].map((mark) => ({ term: mark + w, prefix: true, pinyin: true }))
          : []),
      ]
    }
  }
  return { any: group(any, ' & '), direct: group(direct, ' & '), phrases, terms, written }
}

/** A word query restricted to some weights ('' for any field). */
export function weighted(q: string, weights: string) {
  return q.replace(/%W/g, (_m, offset: number, all: string) => {
    const prefix = all.slice(offset - 2, offset) === ':*'
    return weights ? (prefix ? weights : `:${weights}`) : ''
  })
}

/** [start, end) in UTF-16 code units. */
export interface TextRange {
  start: number
  end: number
}

/** Where a pinyin word (full syllables, the last one possibly cut short, or initials) spells characters of a run. */
function pinyinRanges(word: string, run: Token, out: TextRange[]) {
  const s = syllables(run.text)
  // Where each character starts in the text (and where the run ends), worked out at the first match: most runs
  // have none.
  let offsets: number[] | null = null
  const offset = (k: number) => {
    if (!offsets) {
      offsets = []
      let at = run.start
      for (const ch of run.text) {
        offsets.push(at)
        at += ch.length
      }
      offsets.push(at)
    }
    return offsets[k]!
  }
  for (let i = 0; i < s.length; i++) {
    // Spelled or as initials, the word starts with this syllable's first letter.
    if (s[i]![0] !== word[0]) continue
    let pos = 0
    let j = i
    while (pos < word.length && j < s.length && j - i < PINYIN_SPAN) {
      const syl = s[j]!
      if (word.startsWith(syl, pos)) pos += syl.length
      else if (syl.startsWith(word.slice(pos))) pos = word.length
      else break
      j++
    }
    if (pos === word.length) out.push({ start: offset(i), end: offset(j) })
    else if (word.length <= Math.min(PINYIN_SPAN, s.length - i) && [...word].every((c, k) => s[i + k]![0] === c))
      out.push({ start: offset(i), end: offset(i + word.length) })
  }
}

function substringRanges(haystack: string, needle: string, out: TextRange[]) {
  if (!needle) return
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    out.push({ start: at, end: at + needle.length })
}

/** Where the words occur in a text (as written, in any case, through an alias or as pinyin), merged and sorted. */
export function matchRanges(text: string | null, words: readonly string[]): TextRange[] {
  return wordMatcher(words)(text)
}

/**
 * `matchRanges` for one set of words, ready for many texts (a page of results and their fields): the words are
 * folded and split once, and a text is split into runs only when a Latin word needs them.
 */
export function wordMatcher(words: readonly string[]): (text: string | null) => TextRange[] {
  const han: string[] = []
  const latin: { text: string; whole: boolean; names: string[]; pinyin: boolean }[] = []
  for (const word of words)
    for (const t of tokens(fold(word))) {
      if (t.kind === 'han') han.push(t.text)
      else
        latin.push({
          text: t.text,
          // As the index matches: a word's start (the whole word for one letter or a number), or an alias whole.
          whole: t.text.length === 1 || /^\d+$/.test(t.text),
          names: aliasOf.get(t.text) ?? [],
          pinyin: /^[a-z]{2,}$/.test(t.text),
        })
    }
  return (text) => {
    if (!text) return []
    const folded = fold(text)
    const ranges: TextRange[] = []
    for (const h of han) substringRanges(folded, h, ranges)
    if (latin.length > 0) {
      const all = tokens(folded)
      const runs = all.filter((t) => t.kind === 'han')
      const words = all.filter((t) => t.kind === 'latin')
      for (const l of latin) {
        for (const w of words) {
          if (l.whole ? w.text === l.text : w.text.startsWith(l.text))
            ranges.push({ start: w.start, end: w.start + l.text.length })
          if (l.names.includes(w.text)) ranges.push({ start: w.start, end: w.start + w.text.length })
        }
        if (l.pinyin) for (const run of runs) pinyinRanges(l.text, run, ranges)
      }
    }
    return merge(ranges)
  }
}

/** Ranges sorted and merged where they touch or overlap. */
function merge(ranges: TextRange[]): TextRange[] {
  if (ranges.length < 2) return ranges
  ranges.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: TextRange[] = []
  for (const r of ranges) {
    const last = merged.at(-1)
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end)
    else merged.push({ ...r })
  }
  return merged
}
