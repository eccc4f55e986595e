import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { publicCache } from '#server/http/public-cache.ts'
import type { LearningContext } from './context.ts'
import { insertPopupClick, listPopupsForVideo } from './learning.repository.ts'
import type { PopupRow } from './popups-admin.repository.ts'
import { safeLink } from './views.ts'

/** A popup selling access: to the VIP screens, a checkout or a bundle. */
function isUpsell(link: string | null) {
  return link !== null && /^\/(vip|vipBuy|course\/coursePurchase|foryou|PayAmount)(\b|\/|\?|$)/.test(link)
}

/** What operators' writes name, so every cached list of popups is dropped (popups-admin.ts). */
export const POPUPS_TAG = 'player-popups'

type PopupFields = Pick<PopupRow, 'id' | 'atSecond' | 'title' | 'content' | 'imageUrl' | 'link'>

/** A popup as the player receives it (links it must not follow dropped); the console's preview shows the same. */
export function popupView(r: PopupFields) {
  return {
    id: r.id,
    at_second: r.atSecond,
    title: r.title,
    content: r.content,
    image: safeLink(r.imageUrl),
    link: safeLink(r.link),
  }
}

/**
 * The player's popups (cards at a second of a video) and their clicks. A video's popups are read on every open of
 * the player, so they are cached per video for `ttlMs`; operators' changes drop them at once (POPUPS_TAG).
 */
export function createPopups(ctx: LearningContext, ttlMs = 60_000) {
  const { db, now } = ctx
  const cache = publicCache({
    max: 5_000,
    ttlMs,
    load: async (vid: number) => {
      const lesson = (await ctx.facts.lessons([vid])).get(vid)
      return listPopupsForVideo(db, vid, lesson?.courseId ?? null)
    },
    tagsOf: () => [POPUPS_TAG],
  })
  return {
    /**
     * The active popups of a video (its own and its course's), by the second they appear at. Up-sells (links to
     * VIP or a checkout) are left out for a member who may already watch the video in full through the course.
     */
    async popups(vid: number, memberId: number | null = null) {
      let rows = await cache.get(vid)
      if (memberId !== null && rows.some((r) => isUpsell(r.link))) {
        const decision = await ctx.canWatch(memberId, vid)
        if (decision.allowed && (decision.reason === 'entitled' || decision.reason === 'free_course'))
          rows = rows.filter((r) => !isUpsell(r.link))
      }
      return { list: rows.map(popupView) }
    },

    /** Counts a click on a popup (member or anonymous); 404 for an unknown or switched-off popup. */
    async popupClick(id: number, memberId: number | null) {
      if (!(await insertPopupClick(db, id, memberId, now()))) throw new AppError(Codes.NotFound, '弹窗不存在')
    },
  }
}
