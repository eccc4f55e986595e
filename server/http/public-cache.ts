import { LRUCache } from 'lru-cache'
import type { DbOrTx } from '#server/db/database.ts'
import { publishInvalidation } from '#server/db/cache-bus.ts'

// Public reads every visitor shares (home feeds, course pages, course lists, the category tree) are kept in memory.
// Each cache is bounded (`max` entries and, with `sizeOf`, `maxSize` units: least recently used out first) and
// every entry lives `ttlMs` from when it was loaded. A write names what it changed as tags (`course:1001`,
// `teacher:5`, `course-lists`) through `invalidate`: each cache drops the entries carrying one of those tags, in
// this process at once and in every other process through PostgreSQL LISTEN/NOTIFY (server/db/cache-bus.ts),
// within a second. Values are shared between requests, so callers treat them as read-only.

/** What the registry needs of a cache. */
interface Invalidatable {
  dropTags(tags: readonly string[]): void
  clear(): void
}

const caches = new Set<Invalidatable>()

/**
 * The values the caches hand out. They are shared between requests and never changed (a write replaces them), so
 * what is derived from one alone, such as its JSON (server/http/serializer.ts), may be kept with it.
 */
const sharedValues = new WeakSet<object>()

/** Whether `value` is a value a public cache holds (and so never changes). */
export function isSharedValue(value: unknown): value is object {
  return typeof value === 'object' && value !== null && sharedValues.has(value)
}

export interface PublicCache<K, V> {
  /** The cached value, or the loader's; concurrent misses for one key share a single load. */
  get(key: K): Promise<V>
  /** Forgets one key in this process. */
  delete(key: K): void
  /** How many entries are held (tests). */
  readonly size: number
}

export interface PublicCacheOptions<K, V> {
  max: number
  ttlMs: number
  load: (key: K) => Promise<V>
  /** The tags a value depends on (besides its key): a write naming one of them drops it. */
  tagsOf?: (value: V, key: K) => readonly string[]
  /** With `maxSize`: the size of a value (for instance its JSON length), to bound the cache by size. */
  sizeOf?: (value: V) => number
  maxSize?: number
  /**
   * False for values that are never answered as they are (the course cache's kept JSON): not marked as shared
   * values, which would cost the collector an entry in a weak set each.
   */
  answered?: false
}

/**
 * What was dropped while loads ran, for a load to ask what was dropped after it began: `begin` when a load starts,
 * `end` with what it answered when it is over. Only the drops some running load began before are kept, so the log
 * stays short however long loads keep running one after another.
 */
export class DropsWhileLoading<T> {
  private heardCount = 0
  private log: { at: number; what: T }[] = []
  /** The running loads, by the count of drops heard when they began. */
  private readonly running = new Map<number, number>()

  /** How many drops are kept (tests). */
  get kept() {
    return this.log.length
  }

  heard(what: T) {
    this.heardCount++
    if (this.running.size > 0) this.log.push({ at: this.heardCount, what })
  }

  begin() {
    const at = this.heardCount
    this.running.set(at, (this.running.get(at) ?? 0) + 1)
    return at
  }

  /** Ends a load that began at `at`: what was dropped since, oldest first. */
  end(at: number): T[] {
    const since = this.log.filter((d) => d.at > at).map((d) => d.what)
    const left = this.running.get(at)! - 1
    if (left > 0) this.running.set(at, left)
    else this.running.delete(at)
    const oldest = Math.min(...this.running.keys())
    const kept = this.log.findIndex((d) => d.at > oldest)
    this.log = kept === -1 ? [] : this.log.slice(kept)
    return since
  }
}

/** A cache of `load(key)`; `ttlMs: 0` turns caching off (every get loads). */
export function publicCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  options: PublicCacheOptions<K, V>,
): PublicCache<K, V> {
  const { load, ttlMs, tagsOf, sizeOf } = options
  if (ttlMs <= 0) return { get: load, delete: () => {}, size: 0 }
  /** Tag → the keys whose values carry it; kept in step with the cache through `dispose`. */
  const byTag = new Map<string, Set<K>>()
  const tagsByKey = new Map<K, readonly string[]>()
  const untag = (key: K) => {
    for (const tag of tagsByKey.get(key) ?? []) {
      const keys = byTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) byTag.delete(tag)
    }
    tagsByKey.delete(key)
  }
  // A write can be heard while a value is loading: the load may have read the rows before the write committed, and
  // the value has no tags yet for the drop to find. Such a value is handed to the callers waiting for it, not kept.
  const drops = new DropsWhileLoading<readonly string[] | 'all'>()
  const staleLoads = new Set<K>()
  const cache = new LRUCache<K, V>({
    max: options.max,
    ttl: ttlMs,
    ...(sizeOf && options.maxSize && { maxSize: options.maxSize, sizeCalculation: (v: V) => Math.max(1, sizeOf(v)) }),
    // A load whose entry is deleted or cleared meanwhile still answers the callers waiting for it (not an error);
    // lru-cache then does not store it.
    ignoreFetchAbort: true,
    fetchMethod: async (key, _stale, { signal }) => {
      const began = drops.begin()
      let since: (readonly string[] | 'all')[]
      let value: V
      try {
        value = await load(key)
      } finally {
        since = drops.end(began)
      }
      if (since.length > 0 && !signal.aborted) {
        const tags = tagsOf ? tagsOf(value, key) : []
        if (since.some((d) => d === 'all' || d.some((t) => tags.includes(t)))) staleLoads.add(key)
      }
      return value
    },
    dispose: (_value, key) => untag(key),
  })
  const tagged = (key: K, value: V) => {
    untag(key)
    const tags = tagsOf ? tagsOf(value, key) : []
    tagsByKey.set(key, tags)
    for (const tag of tags) {
      let keys = byTag.get(tag)
      if (!keys) byTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
  }
  caches.add({
    dropTags(tags) {
      drops.heard(tags)
      for (const tag of tags)
        for (const key of [...(byTag.get(tag) ?? [])]) {
          cache.delete(key)
          // An entry being refreshed leaves without `dispose`: its tags must not carry over to the next value.
          untag(key)
        }
    },
    clear() {
      drops.heard('all')
      cache.clear()
      byTag.clear()
      tagsByKey.clear()
    },
  })
  return {
    async get(key) {
      const value = (await cache.fetch(key))!
      // Before any other request runs: the stored value goes at once.
      if (staleLoads.delete(key)) cache.delete(key)
      if (typeof value === 'object' && options.answered !== false) sharedValues.add(value)
      // fetch answers undefined only when the load does, which `V` rules out.
      if (tagsOf && !tagsByKey.has(key) && cache.has(key)) tagged(key, value)
      return value
    },
    delete(key) {
      cache.delete(key)
      untag(key)
    },
    get size() {
      return cache.size
    },
  }
}

/**
 * Lets a cache of another shape (catalogue facts' batch LRU) hear the same invalidations: `drop` is called with the
 * tags of every write, here and in other processes; `clear` after the bus lost notifications. Answers a function
 * that stops it.
 */
export function onInvalidation(drop: (tags: readonly string[]) => void, clear: () => void) {
  const hearer = { dropTags: drop, clear }
  caches.add(hearer)
  return () => void caches.delete(hearer)
}

/** How many cache-bus connections of this process listen now (server/app.ts reports each one's state). */
let listeningBuses = 0
/** Counts those reports: a change means notifications may have gone unheard in between. */
let busReports = 0

/** A cache-bus connection of this process started (true) or stopped (false) listening. */
export function busListening(listening: boolean) {
  listeningBuses += listening ? 1 : -1
  busReports++
}

/**
 * Whether this process hears other processes' writes now: null when it does not, otherwise a number that stays the
 * same for as long as it has heard them without a break. The caches above serve a value for its TTL regardless; one
 * that must never serve a stale value (the session a token names) serves only while this holds the number it had
 * when the value was read.
 */
export function hearingEpoch(): number | null {
  return listeningBuses > 0 ? busReports : null
}

/** Drops, in this process, every cached value carrying one of these tags (none for none: a bus heartbeat). */
export function dropTagged(tags: readonly string[]) {
  if (tags.length === 0) return
  for (const cache of caches) cache.dropTags(tags)
}

/** What a session's change sends (server/modules/sessions/session-cache.ts; migrations 0033 and 0034). */
export const SESSION_TAG_PREFIX = 'session:'
export const ALL_SESSIONS_TAG = 'sessions:all'

/**
 * Whether a write's tags may change what a public page shows: any tag but a session's (a sign-in, a sign-out), which
 * change only what one member sees.
 */
export const changesPublicReads = (tags: readonly string[]) =>
  tags.some((tag) => !tag.startsWith(SESSION_TAG_PREFIX) && tag !== ALL_SESSIONS_TAG)

/**
 * A write changed what these tags name: drops their entries here now and, through `db` (inside the writer's
 * transaction, so others hear it once it commits), in every other process.
 */
export async function invalidate(db: DbOrTx, tags: readonly string[]) {
  if (tags.length === 0) return
  dropTagged(tags)
  await publishInvalidation(db, tags)
}

/** Drops every cached public read in this process: the whole catalogue was written again (reseed, tests). */
export function clearAllCaches() {
  for (const cache of caches) cache.clear()
}
