import type { WatchDecision } from '#server/modules/access/access.service.ts'

/**
 * canWatch's answers for (member, video), kept briefly in this process. A member watching sends a progress save
 * every 10 s; asking canWatch each time would double the queries of the hottest write, while its answer only
 * clamps the saved position (the playlist, segment and key endpoints ask canWatch themselves, uncached). Opening
 * the video page asks canWatch afresh and replaces the entry, so a purchase counts from the next page view.
 */
export class DecisionCache {
  private readonly entries = new Map<string, { decision: WatchDecision; expires: number }>()
  private readonly ttlMs: number
  private readonly maxEntries: number
  private readonly now: () => Date

  constructor(options: { ttlMs: number; now: () => Date; maxEntries?: number }) {
    this.ttlMs = options.ttlMs
    this.now = options.now
    this.maxEntries = options.maxEntries ?? 50_000
  }

  get(memberId: number, videoId: number): WatchDecision | undefined {
    const key = `${memberId}:${videoId}`
    const hit = this.entries.get(key)
    if (!hit) return undefined
    if (hit.expires <= this.now().getTime()) {
      this.entries.delete(key)
      return undefined
    }
    return hit.decision
  }

  set(memberId: number, videoId: number, decision: WatchDecision) {
    if (this.ttlMs <= 0) return
    const key = `${memberId}:${videoId}`
    // Oldest first out: a Map iterates in insertion order, and a re-set moves the key to the end.
    this.entries.delete(key)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { decision, expires: this.now().getTime() + this.ttlMs })
  }

  delete(memberId: number, videoId: number) {
    this.entries.delete(`${memberId}:${videoId}`)
  }
}
