import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { activeEntitlementsByCourse, ownedCourseIds } from '#server/modules/access/access.service.ts'
import { livePullUrl, publishedSystemCourseIds } from '#server/modules/catalogue/catalogue.service.ts'
import type { CourseDetail } from '#shared/api/catalogue.ts'
import type { LearningContext } from './context.ts'
import { coursesWithProgress, progressIn, summaryCard, toCourseProgress } from './course-progress.ts'
import { listCourseProgress, listStartedCourseIds } from './learning.repository.ts'
import type { AccessMode, CourseAccess, SystemProgress } from './learning.schema.ts'
import { flatten, safeLink } from './views.ts'

/** Progress over several courses: their videos, started and finished ones, the share watched, the latest studied. */
function overallOf(
  parts: {
    video_count: number
    finished_count: number
    started_count: number
    percent: number
    last_vid: number | null
    last_studied_at: string | null
  }[],
) {
  const videoCount = parts.reduce((n, p) => n + p.video_count, 0)
  const finished = parts.reduce((n, p) => n + p.finished_count, 0)
  const started = parts.reduce((n, p) => n + p.started_count, 0)
  const weighted = parts.reduce((n, p) => n + p.percent * p.video_count, 0)
  const latest = parts
    .filter((p) => p.last_studied_at)
    .sort((a, b) => (a.last_studied_at! < b.last_studied_at! ? 1 : -1))[0]
  return {
    video_count: videoCount,
    finished_count: finished,
    started_count: started,
    percent: videoCount > 0 ? Math.floor(weighted / videoCount) : 0,
    last_vid: latest?.last_vid ?? null,
    last_studied_at: latest?.last_studied_at ?? null,
  }
}

/** The course page's bar, and system courses' programme progress. */
export function createCourseStudy(ctx: LearningContext) {
  const { db, now, courseDetail } = ctx

  return {
    /**
     * What the course page's bar offers (GET /course/access): full (free or entitled: "开始学习" / "继续学习"),
     * preview ("试看") or none, where to start or continue, the member's progress, and a live course's stream.
     */
    async courseAccess(memberId: number | null, courseId: number): Promise<CourseAccess> {
      const course = await courseDetail(courseId)
      const flat = flatten(course)
      const tryable = flat.find((v) => v.is_free || v.free_seconds > 0)
      // Bought (an entitlement, the course's own or a system course's), or opened by VIP alone: the page shows 已购,
      // or keeps the price with its own buy button next to the VIP state.
      const owned =
        memberId !== null && !course.is_free && (await ownedCourseIds(db, memberId, [courseId], now())).has(courseId)
      let mode: AccessMode
      if (course.is_free) mode = 'full'
      else if (course.type === 'system') {
        // A system course is whole only when bought (or VIP on a VIP-free one): having bought or started one of
        // its courses on its own opens that course, not the programme, which stays for sale.
        const vip = course.vip_free && memberId !== null && (await ctx.vipMembership(memberId))?.active === true
        mode = owned || vip ? 'full' : tryable ? 'preview' : 'none'
      } else {
        const locked = flat.find((v) => !v.is_free)?.id ?? null
        if (locked !== null) {
          const decision = await ctx.canWatch(memberId, locked)
          mode = decision.allowed && decision.until_second === null ? 'full' : tryable ? 'preview' : 'none'
        } else if (flat.length > 0) {
          mode = 'full'
        } else {
          // A live course before its replay has no video to ask canWatch about: its own entitlements decide.
          mode =
            memberId !== null && (await activeEntitlementsByCourse(db, memberId, now(), [courseId])).has(courseId)
              ? 'full'
              : 'none'
        }
      }
      const viaVip = mode === 'full' && !course.is_free && !owned && course.vip_free
      // The course page already counted the course's videos: only the member's progress is read.
      const progress =
        memberId === null
          ? null
          : progressIn(course.video_count, (await listCourseProgress(db, memberId, [courseId]))[0])
      const live =
        course.type === 'live' && course.live_status === 'live' && mode === 'full'
          ? await livePullUrl(db, courseId)
          : null
      return {
        course_id: courseId,
        mode,
        login_required: memberId === null && mode !== 'full',
        owned,
        via_vip: viaVip,
        first_vid: (mode === 'full' ? flat[0] : tryable)?.id ?? null,
        resume: progress?.last_vid ? { vid: progress.last_vid, position: progress.last_position ?? 0 } : null,
        progress,
        live_status: course.live_status,
        live_pull_url: safeLink(live),
      }
    },

    /** Which of these courses the member has bought (VIP opens, but does not own); none for a visitor. */
    async ownedAmong(memberId: number | null, courseIds: readonly number[]) {
      if (memberId === null || courseIds.length === 0) return { owned: [] }
      const owned = await ownedCourseIds(db, memberId, [...new Set(courseIds)], now())
      return { owned: courseIds.filter((id, i) => owned.has(id) && courseIds.indexOf(id) === i) }
    },

    /** A system course's programme progress for a member: each course's, and overall. 404 unless a system course. */
    async systemProgress(memberId: number, id: number): Promise<SystemProgress> {
      const course = await courseDetail(id)
      if (course.type !== 'system') throw new AppError(Codes.NotFound, '体系课不存在')
      const ids = [id, ...course.sub_courses.map((c) => c.id)]
      const [rows, entitled] = await Promise.all([
        coursesWithProgress(db, memberId, ids),
        activeEntitlementsByCourse(db, memberId, now(), [id]),
      ])
      const byId = new Map(rows.map((r) => [r.card.id, r]))
      const parts = course.sub_courses.flatMap((c) => {
        const row = byId.get(c.id)
        return row ? [{ course_id: c.id, ...toCourseProgress(row) }] : []
      })
      const own = byId.get(id)
      const all = own ? [{ course_id: id, ...toCourseProgress(own) }, ...parts] : parts
      return {
        id,
        joined: entitled.has(id) || all.some((p) => p.last_studied_at !== null),
        overall: overallOf(all),
        courses: parts,
      }
    },

    /** The system courses a member has joined (/ke3), with overall progress, most recently studied first. */
    async mySystemCourses(memberId: number) {
      const [entitled, started] = await Promise.all([
        activeEntitlementsByCourse(db, memberId, now()),
        listStartedCourseIds(db, memberId),
      ])
      // Joined: entitled to the system course, or started it or one of its courses.
      const ids = await publishedSystemCourseIds(db, [...entitled.keys(), ...started], started)
      const details = (await Promise.all(ids.map((id) => courseDetail(id).catch(() => null)))).filter(
        (d): d is CourseDetail => d !== null,
      )
      const allIds = details.flatMap((d) => [d.id, ...d.sub_courses.map((c) => c.id)])
      const rows = await coursesWithProgress(db, memberId, allIds)
      const byId = new Map(rows.map((r) => [r.card.id, r]))
      const list = details.flatMap((d) => {
        const own = byId.get(d.id)
        if (!own) return []
        const parts = [own, ...d.sub_courses.flatMap((c) => byId.get(c.id) ?? [])].map(toCourseProgress)
        return [{ ...summaryCard(own), course_count: d.sub_courses.length, progress: overallOf(parts) }]
      })
      list.sort(
        (a, b) => (b.progress.last_studied_at ?? '').localeCompare(a.progress.last_studied_at ?? '') || a.id - b.id,
      )
      return { list }
    },
  }
}
