/**
 * A tiny in-memory cache with a time to live, for public reads that every visitor shares (home feed, course
 * detail). Values are shared between requests, so callers must treat them as read-only. Each process has its own;
 * a few seconds of staleness after an edit is the price, and `clearAllCaches()` drops everything at once (reseed).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>()
  private readonly pending = new Map<K, Promise<V>>()
  private readonly ttlMs: number
  private readonly maxEntries: number

  constructor(ttlMs: number, maxEntries = 1000) {
    this.ttlMs = ttlMs
    this.maxEntries = maxEntries
    registry.add(this)
  }

  /** The cached value, or `load()`'s; concurrent misses for one key share a single load. */
  async get(key: K, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load()
    const hit = this.entries.get(key)
    if (hit && hit.expires > Date.now()) return hit.value
    const inFlight = this.pending.get(key)
    if (inFlight) return inFlight
    const promise = load()
      .then((value) => {
        if (this.entries.size >= this.maxEntries) this.entries.clear()
        this.entries.set(key, { value, expires: Date.now() + this.ttlMs })
        return value
      })
      .finally(() => this.pending.delete(key))
    this.pending.set(key, promise)
    return promise
  }

  clear() {
    this.entries.clear()
  }
}

const registry = new Set<{ clear(): void }>()

/** Drops every cached public read in this process (after the catalogue is reseeded). */
export function clearAllCaches() {
  for (const cache of registry) cache.clear()
}
