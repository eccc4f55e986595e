import { LRUCache } from 'lru-cache'

// Public reads every visitor shares (home feeds, course pages, the category tree) are kept in memory for a few
// seconds: a few seconds of staleness after an edit is the price. Each cache is bounded (`max` entries, least
// recently used out first) and every entry lives `ttlMs`; values are shared between requests, so callers treat
// them as read-only. Each process has its own.

const caches = new Set<{ clear(): void }>()

export interface PublicCache<K, V> {
  /** The cached value, or the loader's; concurrent misses for one key share a single load. */
  get(key: K): Promise<V>
  /** Forgets one key (after a write that changes it). */
  delete(key: K): void
}

/** A cache of `load(key)`; `ttlMs: 0` turns caching off (every get loads). */
export function publicCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(options: {
  max: number
  ttlMs: number
  load: (key: K) => Promise<V>
}): PublicCache<K, V> {
  const { load, ttlMs } = options
  if (ttlMs <= 0) return { get: load, delete: () => {} }
  const cache = new LRUCache<K, V>({ max: options.max, ttl: ttlMs, fetchMethod: (key) => load(key) })
  caches.add(cache)
  return {
    async get(key) {
      const value = await cache.fetch(key)
      // fetch answers undefined only when the load does, which `V` rules out.
      return value!
    },
    delete: (key) => void cache.delete(key),
  }
}

/** Drops every cached public read in this process: the whole catalogue was written again (reseed, tests). */
export function clearAllCaches() {
  for (const cache of caches) cache.clear()
}
