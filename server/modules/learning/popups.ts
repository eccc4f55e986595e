import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { LearningContext } from './context.ts'
import { insertPopupClick, listPopupsForVideo } from './learning.repository.ts'
import { safeLink } from './views.ts'

/** A popup selling access: to the VIP screens, a checkout or a bundle. */
function isUpsell(link: string | null) {
  return link !== null && /^\/(vip|vipBuy|course\/coursePurchase|foryou|PayAmount)(\b|\/|\?|$)/.test(link)
}

/** The player's popups (cards at a second of a video) and their clicks. */
export function createPopups(ctx: LearningContext) {
  const { db, now } = ctx
  return {
    /**
     * The active popups of a video (its own and its course's), by the second they appear at. Up-sells (links to
     * VIP or a checkout) are left out for a member who may already watch the video in full through the course.
     */
    async popups(vid: number, memberId: number | null = null) {
      const lesson = (await ctx.facts.lessons([vid])).get(vid)
      let rows = await listPopupsForVideo(db, vid, lesson?.courseId ?? null)
      if (memberId !== null && rows.some((r) => isUpsell(r.link))) {
        const decision = await ctx.canWatch(memberId, vid)
        if (decision.allowed && (decision.reason === 'entitled' || decision.reason === 'free_course'))
          rows = rows.filter((r) => !isUpsell(r.link))
      }
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
