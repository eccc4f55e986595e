import { LRUCache } from 'lru-cache'
import type { WatchDecision } from '#server/modules/access/access.service.ts'

/** What a progress save needs of a video besides the decision: its course and length (the catalogue's). */
interface LessonRef {
  courseId: number
  durationSeconds: number
}

/** A cached answer: the decision, and the lesson it was about (null when the video does not exist). */
export interface DecisionEntry {
  decision: WatchDecision
  lesson: LessonRef | null
}

/**
 * canWatch's answers for (member, video), kept briefly in this process. A member watching sends a progress save
 * every 10 s; asking canWatch each time would double the queries of the hottest write, while its answer only
 * clamps the saved position (the playlist and key endpoints ask canWatch themselves, without this cache). Opening
 * the video page asks canWatch afresh and replaces the entry, so a purchase counts from the next page view. An
 * entry is trusted for `ttlMs` on the injected clock; at most `maxEntries`, the least recently used leave first.
 */
export class DecisionCache {
  private readonly entries: LRUCache<string, DecisionEntry> | null

  constructor(options: { ttlMs: number; now: () => Date; maxEntries?: number }) {
    this.entries =
      options.ttlMs > 0
        ? new LRUCache<string, DecisionEntry>({
            max: options.maxEntries ?? 50_000,
            ttl: options.ttlMs,
            // The service's clock (tests move it), read on every check.
            perf: { now: () => options.now().getTime() },
            ttlResolution: 0,
          })
        : null
  }

  get(memberId: number, videoId: number): DecisionEntry | undefined {
    return this.entries?.get(`${memberId}:${videoId}`)
  }

  set(memberId: number, videoId: number, entry: DecisionEntry) {
    this.entries?.set(`${memberId}:${videoId}`, entry)
  }

  delete(memberId: number, videoId: number) {
    this.entries?.delete(`${memberId}:${videoId}`)
  }
}
