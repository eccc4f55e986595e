// Typo tolerance for course search (docs/decisions/2026-11-26-search-typos.md). When a keyword finds nothing, each
// of its words that no course has is corrected against the vocabulary of known words (search_words): a Latin word
// or pinyin to the known word or pinyin at the fewest edits (one wrong, missing, extra or swapped letter; two for
// words of eight letters or more), a Chinese word of three or more characters with one wrong character to the
// known word that differs in that character (the one read the same way first: an input method's slip). The
// search then runs again with the corrected words; a correction that finds nothing is not offered.
import type { Db } from '#server/db/database.ts'
import { fold, syllables, weighted, wordQuery } from './search-text.ts'
import {
  anyTermExists,
  charactersBetween,
  courseCounts,
  firstWordFound,
  knownPairs,
  spellingCandidates,
} from './search-words.repository.ts'

/** Edits allowed in a word: one, two from eight letters on (a long word has more room for slips). */
export const maxEdits = (word: string) => (word.length >= 8 ? 2 : 1)

/** Shorter Latin words are left alone: one edit away from a four-letter word is too much of the word. */
const MIN_LATIN = 4
/** "Among several": a Chinese word of two characters with one wrong has too many readings. */
const MIN_HAN = 3

/**
 * The optimal string alignment distance (insertions, deletions, substitutions and swaps of neighbours, each 1)
 * between `word` and every prefix of `target`: entry j is the distance to target.slice(0, j).
 */
function prefixDistances(word: string, target: string): number[] {
  const a = [...word]
  const b = [...target]
  let prev2: number[] = []
  let prev = b.map((_, j) => j + 1)
  prev.unshift(0)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1)
      row.push(d)
    }
    prev2 = prev
    prev = row
  }
  return prev
}

/** The edit distance between two words. */
export function editDistance(a: string, b: string) {
  return prefixDistances(a, b).at(-1)!
}

/**
 * The prefix of `target` closest to `word` (of about its length: within `slack` characters), and its distance;
 * equal distances prefer the prefix as long as the word.
 */
export function closestPrefix(word: string, target: string, slack: number) {
  const d = prefixDistances(word, target)
  const len = [...word].length
  let best = { distance: Infinity, prefix: '' }
  let bestGap = Infinity
  for (let j = Math.max(1, len - slack); j <= Math.min(d.length - 1, len + slack); j++) {
    const gap = Math.abs(j - len)
    if (d[j]! < best.distance || (d[j] === best.distance && gap < bestGap)) {
      best = { distance: d[j]!, prefix: [...target].slice(0, j).join('') }
      bestGap = gap
    }
  }
  return best
}

interface Choice {
  corrected: string
  distance: number
  /** 0 a word as written, 1 pinyin (ranks below, as in the search). */
  pinyin: number
  /** How common: more first. */
  weight: number
}

/** Fewer edits first, then words as written before pinyin, then the more common. */
const better = (a: Choice, b: Choice | null) =>
  !b || (a.distance - b.distance || a.pinyin - b.pinyin || b.weight - a.weight) < 0

/** A Latin word no course has, corrected to a known word (whole) or a known pinyin (the part it spells), or null. */
async function correctLatin(db: Db, word: string): Promise<string | null> {
  const edits = maxEdits(word)
  const { latin, pinyin: runs } = await spellingCandidates(db, word)
  let best: Choice | null = null
  // As the search matches Latin words by their start, a slip in the start of a longer word counts too.
  const near = latin.flatMap((w) => {
    const { distance } = closestPrefix(word, w, edits)
    return distance <= edits ? [{ word: w, distance }] : []
  })
  const counts = await courseCounts(
    db,
    near.map((c) => c.word),
  )
  for (const c of near) {
    const choice = { corrected: c.word, distance: c.distance, pinyin: 0, weight: counts.get(c.word) ?? 0 }
    if (better(choice, best)) best = choice
  }
  const spelt = new Map<string, { distance: number; runs: number }>()
  for (const run of runs) {
    const { distance, prefix } = closestPrefix(word, run, edits)
    if (distance > edits) continue
    const seen = spelt.get(prefix)
    spelt.set(prefix, { distance, runs: (seen?.runs ?? 0) + 1 })
  }
  for (const [prefix, s] of spelt) {
    const choice = { corrected: prefix, distance: s.distance, pinyin: 1, weight: s.runs }
    if (better(choice, best)) best = choice
  }
  return best?.corrected ?? null
}

/** Where one character of a Chinese word is likely wrong, from the pairs no course has (indexes of pairs). */
function suspects(missing: number[], pairs: number): number[] {
  if (missing.length === 2 && missing[1] === missing[0]! + 1) return [missing[1]]
  if (missing.length !== 1) return []
  const j = missing[0]!
  if (j === 0) return [0]
  if (j === pairs - 1) return [pairs]
  return [j, j + 1]
}

/** How close a replacement reads to the character it replaces: the same syllable, the same initial, or neither. */
function readsLike(x: string, original: string) {
  const [a] = syllables(x)
  const [b] = syllables(original)
  return a && b ? (a === b ? 0 : a[0] === b[0] ? 1 : 2) : 2
}

/** How many corrections of one Chinese word are checked against the courses. */
const HAN_CHECKED = 8

/** A Chinese word no course has, with one character replaced so that a course has it, or null. */
async function correctHan(db: Db, word: string): Promise<string | null> {
  const chars = [...word]
  const pairs = chars.slice(0, -1).map((c, i) => c + chars[i + 1]!)
  const known = await knownPairs(db, pairs)
  const missing = pairs.flatMap((p, i) => (known.has(p) ? [] : [i]))
  const candidates: { word: string; reads: number }[] = []
  for (const at of suspects(missing, pairs.length)) {
    for (const x of await charactersBetween(db, chars[at - 1] ?? null, chars[at + 1] ?? null)) {
      if (x === chars[at]) continue
      candidates.push({ word: chars.map((c, i) => (i === at ? x : c)).join(''), reads: readsLike(x, chars[at]!) })
    }
  }
  const ranked = candidates.sort((a, b) => a.reads - b.reads).slice(0, HAN_CHECKED)
  return await firstWordFound(
    db,
    ranked.map((c) => ({ word: c.word, all: weighted(wordQuery(c.word)!.any, '') })),
  )
}

/**
 * One word of a keyword, corrected when it has the shape of a typo and no course has it; else as it was. `alone`:
 * the keyword is this word, which found nothing (so no course has it).
 */
async function correctWord(db: Db, word: string, alone: boolean): Promise<string> {
  const f = fold(word)
  if (new RegExp(`^[a-z]{${MIN_LATIN},}$`).test(f)) {
    if (!alone && (await anyTermExists(db, wordQuery(f)!.terms!))) return word
    return (await correctLatin(db, f)) ?? word
  }
  if (new RegExp(`^\\p{Script=Han}{${MIN_HAN},}$`, 'u').test(f)) return (await correctHan(db, f)) ?? word
  return word
}

/** The words of a keyword that found nothing, corrected; null when none could be. */
export async function correctWords(db: Db, words: string[]): Promise<string[] | null> {
  const fixed = await Promise.all(words.map((w) => correctWord(db, w, words.length === 1)))
  return fixed.some((w, i) => w !== words[i]) ? fixed : null
}
