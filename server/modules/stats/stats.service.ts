import type { Db, DbOrTx } from '#server/db/database.ts'
import { insertStatEvent, rollupByDay } from './stats.repository.ts'
import { COMMENT_CLICK_EVENT, type RollupRow, type StatClickBody } from './stats.schema.ts'

/**
 * Daily figures for dashboards: per Beijing calendar day and event, how many clicks and how many distinct
 * signed-in members, for events at or after `from` and before `to`.
 */
export async function dailyRollup(db: DbOrTx, from: Date, to: Date): Promise<RollupRow[]> {
  return rollupByDay(db, from, to)
}

/** Click statistics (spec 7 /stat/*): one insert per click, nothing read on the way. */
export function createStatsService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  return {
    /** Records one click of `event` by a member (null: anonymous) with its position and page. */
    async click(
      event: string,
      memberId: number | null,
      body: Pick<StatClickBody, 'position' | 'page'>,
      courseId: number | null = null,
    ) {
      await insertStatEvent(db, {
        event,
        memberId,
        position: body.position,
        page: body.page,
        courseId,
        createdAt: now(),
      })
    },
    /** Records a click on a course's comment area (POST /comment/course/click). */
    async commentAreaClick(memberId: number | null, courseId: number, body: Pick<StatClickBody, 'position' | 'page'>) {
      await insertStatEvent(db, {
        event: COMMENT_CLICK_EVENT,
        memberId,
        position: body.position,
        page: body.page,
        courseId,
        createdAt: now(),
      })
    },
    dailyRollup: (from: Date, to: Date) => dailyRollup(db, from, to),
  }
}

export type StatsService = ReturnType<typeof createStatsService>
