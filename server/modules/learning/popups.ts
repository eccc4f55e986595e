import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { LearningContext } from './context.ts'
import { insertPopupClick, listPopupsForVideo } from './learning.repository.ts'
import { safeLink } from './views.ts'

/** The player's popups (cards at a second of a video) and their clicks. */
export function createPopups(ctx: LearningContext) {
  const { db, now } = ctx
  return {
    /** The active popups of a video (its own and its course's), by the second they appear at. */
    async popups(vid: number) {
      const lesson = (await ctx.facts.lessons([vid])).get(vid)
      const rows = await listPopupsForVideo(db, vid, lesson?.courseId ?? null)
      return {
        list: rows.map((r) => ({
          id: r.id,
          at_second: r.atSecond,
          title: r.title,
          content: r.content,
          image: safeLink(r.imageUrl),
          link: safeLink(r.link),
        })),
      }
    },

    /** Counts a click on a popup (member or anonymous); 404 for an unknown or switched-off popup. */
    async popupClick(id: number, memberId: number | null) {
      if (!(await insertPopupClick(db, id, memberId, now()))) throw new AppError(Codes.NotFound, '弹窗不存在')
    },
  }
}
