import { describe, expect, it } from 'vitest'
import { PINNED_MAX } from '#server/modules/comments/comments.service.ts'
import { AudiencePlan } from './audience.ts'
import { CataloguePlan } from './catalogue.ts'
import { topics } from './vocabulary.ts'

// The audience's rows without a database: the plans alone, crowded onto a few courses.

const now = Date.parse('2026-11-01T00:00:00Z')

function plan(comments: number) {
  const categories = Object.values(topics).map((topic, i) => ({ id: i + 1, topic, covers: ['/demo/cover.webp'] }))
  const start = { teacherId: 1, courseId: 1, chapterId: 1, videoId: 1 }
  const catalogue = new CataloguePlan(7, 12, categories, start, now)
  const counts = { members: 2_000, progress: 0, orders: 0, favourites: 0, comments }
  const ids = { memberId: 1, orderId: 1, orderItemId: 1, orderEventId: 1, entitlementId: 1, favouriteId: 1 }
  return new AudiencePlan(7, counts, catalogue, { ...ids, commentId: 1, refundId: 1 }, [], now)
}

describe('the scale audience', () => {
  it('pins no more shown comments in a place than the app allows, and fills the busiest places up to it', () => {
    // Columns as seed-scale.ts copies them: course_id 2, video_id 3, parent_id 4, status 10, type 11.
    const shownPins = new Map<string, number>()
    let featured = 0
    for (const row of plan(40_000).commentRows()) {
      if (row[11] === 'featured') featured++
      if (row[11] !== 'pinned') continue
      expect(row[4]).toBeNull()
      if (row[10] !== 'shown') continue
      const place = `${String(row[2])}:${String(row[3] ?? 'course')}`
      shownPins.set(place, (shownPins.get(place) ?? 0) + 1)
    }
    const busiest = [...shownPins.values()].sort((a, b) => b - a).slice(0, 3)
    expect(busiest).toEqual([PINNED_MAX, PINNED_MAX, PINNED_MAX])
    expect(featured).toBeGreaterThan(0)
  })
})
