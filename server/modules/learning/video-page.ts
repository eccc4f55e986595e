import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { badCursor } from '#server/http/cursor.ts'
import type { LearningContext } from './context.ts'
import { listProgressInCourses } from './learning.repository.ts'
import type { VideoPage, VideoPageQuery } from './learning.schema.ts'
import { flatten, isCode, toAccess, toProgress, watermarkFor, type FlatVideo } from './views.ts'

/** Within this many seconds of the end, coming back starts the video again instead of at its last frame. */
const RESTART_NEAR_END_SECONDS = 3

/** The player page and a course's video list. */
export function createVideoPages(ctx: LearningContext) {
  const { db, courseDetail } = ctx

  return {
    /**
     * Everything the player page needs for a video: the video, its course and chapters (with the member's
     * progress), the access canWatch gives (full, preview until a second, none), where to resume, the next
     * video, and a signed HLS URL when something may be played. 404 for unknown videos or unpublished courses.
     */
    async videoPage(memberId: number | null, vid: number): Promise<VideoPage> {
      const lesson = (await ctx.facts.lessons([vid])).get(vid)
      if (!lesson) throw new AppError(Codes.NotFound, '视频不存在')
      const [decision, progress, course] = await Promise.all([
        ctx.canWatch(memberId, vid),
        memberId === null ? [] : listProgressInCourses(db, memberId, [lesson.courseId]),
        courseDetail(lesson.courseId),
      ])
      if (decision.reason === 'not_found') throw new AppError(Codes.NotFound, '视频不存在')
      // The page asks afresh: progress saves trust this answer for a while (decision-cache.ts).
      if (memberId !== null)
        ctx.decisions.set(memberId, vid, {
          decision,
          lesson: { courseId: lesson.courseId, durationSeconds: lesson.durationSeconds },
        })
      const outcome = !decision.allowed
        ? { kind: 'no_access' as const }
        : await ctx.play(memberId, vid, decision).then(
            (play) => ({ kind: 'ready' as const, play }),
            (err: unknown) => {
              if (isCode(err, Codes.NoWatchAccess)) return { kind: 'no_access' as const }
              if (isCode(err, Codes.VideoNotReady)) return { kind: 'processing' as const }
              throw err
            },
          )
      const flat = flatten(course)
      const index = flat.findIndex((v) => v.id === vid)
      const current = flat[index]
      if (!current) throw new AppError(Codes.NotFound, '视频不存在')
      const access = toAccess(decision, memberId === null)

      const byVideo = new Map(progress.map((p) => [p.videoId, p]))
      const progressOf = (id: number) => (memberId === null ? null : toProgress(byVideo.get(id)))
      const mine = byVideo.get(vid)
      let resume = mine?.position ?? 0
      if (current.duration > 0 && resume >= current.duration - RESTART_NEAR_END_SECONDS) resume = 0
      if (access.until_second !== null) resume = Math.min(resume, access.until_second)

      const toPlayerVideo = (v: FlatVideo) => ({
        id: v.id,
        title: v.title,
        duration: v.duration,
        is_free: v.is_free,
        free_seconds: v.free_seconds,
        progress: progressOf(v.id),
      })
      return {
        video: { ...toPlayerVideo(current), course_id: course.id, chapter_id: current.chapterId },
        course: {
          id: course.id,
          type: course.type,
          title: course.title,
          cover: course.cover,
          is_free: course.is_free,
          vip_free: course.vip_free,
          price_fen: course.price_fen,
          original_price_fen: course.original_price_fen,
          video_count: course.video_count,
        },
        chapters: course.chapters.map((c) => ({
          id: c.id,
          title: c.title,
          videos: c.videos.map((v) => toPlayerVideo({ ...v, chapterId: c.id, chapterTitle: c.title })),
        })),
        access,
        resume_position: resume,
        next_vid: flat[index + 1]?.id ?? null,
        prev_vid: flat[index - 1]?.id ?? null,
        play:
          outcome.kind === 'ready'
            ? {
                master_url: outcome.play.master_url,
                expires_at: outcome.play.expires_at,
                poster_url: outcome.play.poster_url,
              }
            : null,
        play_status: outcome.kind,
        watermark: memberId === null ? null : watermarkFor(memberId),
      }
    },

    /** The videos of a course in order, a page after the video id `cursor`, with the member's progress. */
    async videoList(memberId: number | null, q: VideoPageQuery) {
      const course = await courseDetail(q.course_id)
      const flat = flatten(course)
      let start = 0
      if (q.cursor) {
        const at = flat.findIndex((v) => v.id === Number(q.cursor))
        if (at < 0) throw badCursor()
        start = at + 1
      }
      const page = flat.slice(start, start + q.limit)
      const progress = memberId === null ? [] : await listProgressInCourses(db, memberId, [course.id])
      const byVideo = new Map(progress.map((p) => [p.videoId, p]))
      return {
        course_id: course.id,
        list: page.map((v, i) => ({
          id: v.id,
          title: v.title,
          duration: v.duration,
          is_free: v.is_free,
          free_seconds: v.free_seconds,
          chapter_id: v.chapterId,
          chapter_title: v.chapterTitle,
          index: start + i + 1,
          progress: memberId === null ? null : toProgress(byVideo.get(v.id)),
        })),
        next_cursor: start + q.limit < flat.length && page.length > 0 ? String(page[page.length - 1]!.id) : null,
      }
    },
  }
}
