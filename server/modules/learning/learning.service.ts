import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { CourseDetail } from '#shared/api/catalogue.ts'
import { toCourseCard } from '#server/modules/catalogue/catalogue.service.ts'
import { listMemberEntitlements, type WatchDecision } from '#server/modules/access/access.service.ts'
import { DecisionCache } from './decision-cache.ts'
import { createProgressAuth } from './progress-auth.ts'
// The watched share for refunds (end of file).
import type { DbOrTx } from '#server/db/database.ts'
import { findWatchedPositions } from './learning.repository.ts'
import {
  countNotes,
  deleteNote,
  findLivePullUrl,
  findVideoCourseProgress,
  insertNote,
  insertPopupClick,
  listCoursesWithProgress,
  listJoinedSystemCourseIds,
  listNotes,
  listPopupsForVideo,
  listProgressInCourses,
  listStudyRecord,
  upsertProgress,
  type ProgressRow,
} from './learning.repository.ts'
import {
  NOTE_MAX_CHARS,
  type Access,
  type AccessMode,
  type CourseAccess,
  type CourseProgress,
  type PagedQuery,
  type PlayDataResult,
  type SystemProgress,
  type VideoPage,
  type VideoPageQuery,
} from './learning.schema.ts'

/** Within this many seconds of the end, coming back starts the video again instead of at its last frame. */
const RESTART_NEAR_END_SECONDS = 3
export const NOTES_PER_VIDEO = 200
const ENTITLEMENT_SCAN = 500

type PlayResult = {
  master_url: string
  expires_at: number
  until_second: number | null
  reason: 'free_course' | 'free_video' | 'entitled' | 'preview'
  poster_url: string | null
}

export interface LearningDeps {
  db: Db
  now: () => Date
  /** The course page data, cached briefly by the catalogue (404 AppError for unknown or unpublished courses). */
  courseDetail: (id: number) => Promise<CourseDetail>
  /** A signed HLS URL for a member or anonymous visitor (server/modules/media/playback.service.ts). */
  play: (memberId: number | null, videoId: number) => Promise<PlayResult>
  /** The one entitlement answer (server/modules/access). */
  canWatch: (memberId: number | null, videoId: number) => Promise<WatchDecision>
  /** How long a canWatch answer clamps progress saves without being asked again; 60 s by default. */
  decisionTtlMs?: number
  /** How long a progress save's body token is trusted without a lookup; 60 s by default (progress-auth.ts). */
  progressAuthTtlMs?: number
  /** The member's VIP membership (server/modules/vip): VIP-free courses they started join their list while it runs. */
  vipMembership: (memberId: number) => Promise<{ active: boolean; expires_at: string } | null>
}

interface FlatVideo {
  id: number
  title: string
  duration: number
  is_free: boolean
  free_seconds: number
  chapterId: number
  chapterTitle: string
}

function flatten(course: CourseDetail): FlatVideo[] {
  return course.chapters.flatMap((c) => c.videos.map((v) => ({ ...v, chapterId: c.id, chapterTitle: c.title })))
}

function percentOf(position: number, duration: number, finished: boolean) {
  if (finished) return 100
  if (duration <= 0) return 0
  return Math.min(100, Math.floor((position * 100) / duration))
}

function toProgress(row: ProgressRow | undefined) {
  if (!row) return { position: 0, percent: 0, finished: false }
  const finished = row.finishedAt !== null
  return { position: row.position, percent: percentOf(row.position, row.duration, finished), finished }
}

function toAccess(decision: WatchDecision, anonymous: boolean): Access {
  const mode: AccessMode = !decision.allowed ? 'none' : decision.until_second === null ? 'full' : 'preview'
  return {
    mode,
    until_second: decision.allowed ? decision.until_second : null,
    reason: decision.allowed ? decision.reason : 'no_access',
    login_required: anonymous && mode !== 'full',
  }
}

function isCode(err: unknown, entry: { code: number }) {
  return err instanceof AppError && err.entry.code === entry.code
}

/** Base64url JSON cursors: opaque to clients, checked on the way in. */
function encodeCursor(parts: [string, number]) {
  return Buffer.from(JSON.stringify(parts)).toString('base64url')
}

function decodeCursor(text: string): [string, number] {
  const bad = () => new AppError(Codes.BadRequest, '参数 cursor 格式不正确（cursor）')
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw bad()
  const [key, id] = parsed as unknown[]
  if (typeof key !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/.test(key)) throw bad()
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw bad()
  return [key, id]
}

type SummaryRow = Awaited<ReturnType<typeof listCoursesWithProgress>>[number]

function toCourseProgress(
  row: Pick<SummaryRow, 'video_count' | 'finished_count' | 'last_vid' | 'last_position' | 'last_at'>,
): CourseProgress {
  const videoCount = Number(row.video_count)
  const finished = Math.min(Number(row.finished_count), videoCount)
  return {
    video_count: videoCount,
    finished_count: finished,
    percent: videoCount > 0 ? Math.floor((finished * 100) / videoCount) : 0,
    last_vid: row.last_vid === null ? null : Number(row.last_vid),
    last_position: row.last_position === null ? null : Number(row.last_position),
    last_studied_at: row.last_at?.toISOString() ?? null,
  }
}

function summaryCard(row: SummaryRow) {
  return toCourseCard({
    id: row.id,
    type: row.type as CourseDetail['type'],
    title: row.title,
    subtitle: row.subtitle,
    coverUrl: row.cover_url,
    priceFen: row.price_fen,
    originalPriceFen: row.original_price_fen,
    isFree: row.is_free,
    vipFree: row.vip_free,
    studentCount: row.student_count,
    liveStartsAt: row.live_starts_at,
    teacherName: row.teacher_name,
  })
}

/**
 * Part of a member's id for the moving watermark: enough for staff to find the account behind a screen recording
 * (with the time and course), not the whole id to a stranger looking at a shared clip.
 */
export function watermarkFor(memberId: number) {
  const id = String(memberId)
  return id.length <= 4 ? `学员 ${id}` : `学员 ${id.slice(0, 2)}**${id.slice(-4)}`
}

/** Only in-site paths and http(s) URLs reach the browser as links or images. */
export function safeLink(value: string | null) {
  if (!value) return null
  if (value.startsWith('/') && !value.startsWith('//')) return value
  return /^https?:\/\/[^\s]+$/i.test(value) ? value : null
}

// Line breaks and tabs are fine in a note; other control characters are not text.
// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export function createLearningService(deps: LearningDeps) {
  const { db, now, courseDetail } = deps
  const decisions = new DecisionCache({ ttlMs: deps.decisionTtlMs ?? 60_000, now })
  const progressAuth = createProgressAuth({ db, now, ttlMs: deps.progressAuthTtlMs })

  async function decisionFor(memberId: number, videoId: number) {
    const cached = decisions.get(memberId, videoId)
    if (cached) return cached
    const decision = await deps.canWatch(memberId, videoId)
    decisions.set(memberId, videoId, decision)
    return decision
  }

  /** Active entitlements of a member, the most generous per course (no expiry beats the latest expiry). */
  async function entitledCourses(memberId: number) {
    const { list } = await listMemberEntitlements(db, { memberId, limit: ENTITLEMENT_SCAN }, now())
    const best = new Map<
      number,
      { source: (typeof list)[number]['source']; expires_at: string | null; granted_at: string }
    >()
    for (const e of list) {
      if (!e.active) continue
      const prev = best.get(e.course_id)
      const better = !prev || (prev.expires_at !== null && (e.expires_at === null || e.expires_at > prev.expires_at))
      if (better) best.set(e.course_id, { source: e.source, expires_at: e.expires_at, granted_at: e.granted_at })
    }
    return best
  }

  /** A video of the course (or, for a system course, of its courses) that is not free: what entitlement decides. */
  async function lockedVideo(course: CourseDetail): Promise<number | null> {
    const own = flatten(course).find((v) => !v.is_free)
    if (own || course.type !== 'system') return own?.id ?? null
    for (const part of course.sub_courses) {
      const detail = await courseDetail(part.id).catch(() => null)
      const v = detail && flatten(detail).find((x) => !x.is_free)
      if (v) return v.id
    }
    return null
  }

  async function saveProgress(
    memberId: number,
    vid: number,
    position: number,
    clientDuration: number | null,
  ): Promise<PlayDataResult> {
    const decision = await decisionFor(memberId, vid)
    if (!decision.allowed)
      throw decision.reason === 'not_found'
        ? new AppError(Codes.NotFound, '视频不存在')
        : new AppError(Codes.NoWatchAccess)
    const row = await upsertProgress(db, {
      memberId,
      videoId: vid,
      position,
      clientDuration,
      limit: decision.until_second,
      now: now(),
    })
    if (!row) {
      decisions.delete(memberId, vid)
      throw new AppError(Codes.NotFound, '视频不存在')
    }
    return {
      vid,
      position: row.position,
      duration: row.duration,
      finished: row.finishedAt !== null,
      until_second: decision.until_second,
      preview_ended: decision.until_second !== null && row.position >= decision.until_second,
    }
  }

  return {
    /** The member behind a progress save's body token (sendBeacon and the player's saves), briefly cached. */
    progressMember: (token: string) => progressAuth.resolve(token),

    /**
     * Everything the player page needs for a video: the video, its course and chapters (with the member's
     * progress), the access canWatch gives (full, preview until a second, none), where to resume, the next
     * video, and a signed HLS URL when something may be played. 404 for unknown videos or unpublished courses.
     */
    async videoPage(memberId: number | null, vid: number): Promise<VideoPage> {
      const playing = deps.play(memberId, vid).then(
        (play) => ({ kind: 'ready' as const, play }),
        (err: unknown) => {
          if (isCode(err, Codes.NoWatchAccess)) return { kind: 'no_access' as const }
          if (isCode(err, Codes.VideoNotReady)) return { kind: 'processing' as const }
          throw err
        },
      )
      const [outcome, context] = await Promise.all([playing, findVideoCourseProgress(db, memberId, vid)])
      if (!context) throw new AppError(Codes.NotFound, '视频不存在')
      const course = await courseDetail(context.courseId)
      const flat = flatten(course)
      const index = flat.findIndex((v) => v.id === vid)
      const current = flat[index]
      if (!current) throw new AppError(Codes.NotFound, '视频不存在')

      let decision: WatchDecision
      if (outcome.kind === 'ready')
        decision = { allowed: true, until_second: outcome.play.until_second, reason: outcome.play.reason }
      else if (outcome.kind === 'no_access') decision = { allowed: false, until_second: 0, reason: 'no_access' }
      else decision = await deps.canWatch(memberId, vid)
      if (memberId !== null) decisions.set(memberId, vid, decision)
      const access = toAccess(decision, memberId === null)

      const byVideo = new Map(context.progress.map((p) => [p.videoId, p]))
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
        if (at < 0) throw new AppError(Codes.BadRequest, '参数 cursor 格式不正确（cursor）')
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

    /**
     * Saves where a member is in a video (POST /update_play_data): clamped to the video's length and to the preview
     * canWatch allows; finished at 90%. One upsert after the (cached) entitlement answer.
     */
    savePlayData: (memberId: number, body: { vid: number; position: number; duration?: number }) =>
      saveProgress(memberId, body.vid, body.position, body.duration ?? null),

    /**
     * Saves a position in a preview (POST /video/updateFreeData): the same record as a full view, so the preview's
     * progress carries over after buying; it never passes the preview end. Anonymous previews stay in the browser.
     */
    saveFreeData: (memberId: number, body: { vid: number; position: number }) =>
      saveProgress(memberId, body.vid, body.position, null),

    /** The member's study history, newest first, paged. */
    async studyRecord(memberId: number, q: PagedQuery) {
      const after = q.cursor ? decodeCursor(q.cursor) : undefined
      const rows = await listStudyRecord(db, memberId, after && { updatedAt: after[0], videoId: after[1] }, q.limit + 1)
      const page = rows.slice(0, q.limit)
      const last = page.at(-1)
      return {
        list: page.map((r) => {
          const finished = r.finishedAt !== null
          return {
            vid: r.videoId,
            video_title: r.videoTitle,
            course_id: r.courseId,
            course_title: r.courseTitle,
            course_cover: r.courseCover,
            course_type: r.courseType,
            position: r.position,
            duration: r.duration,
            percent: percentOf(r.position, r.duration, finished),
            finished,
            updated_at: r.updatedAt.toISOString(),
          }
        }),
        next_cursor: rows.length > q.limit && last ? encodeCursor([last.updatedKey, last.videoId]) : null,
      }
    },

    /**
     * What the member may watch (/ke1): courses they hold an active entitlement to, and free courses (VIP-free
     * ones too while their VIP runs) they have started, each with their progress; most recently studied (or
     * granted) first.
     */
    async album(memberId: number, q: PagedQuery) {
      const [entitled, vip] = await Promise.all([entitledCourses(memberId), deps.vipMembership(memberId)])
      const vipActive = vip?.active === true
      const rows = await listCoursesWithProgress(db, memberId, [...entitled.keys()], { free: true, vipFree: vipActive })
      const items = rows
        .map((row) => {
          const grant = entitled.get(row.id)
          const sortAt = row.last_at?.toISOString() ?? grant?.granted_at ?? '1970-01-01T00:00:00.000Z'
          const source = grant?.source ?? (row.is_free ? ('free' as const) : ('vip' as const))
          const expiresAt = grant ? grant.expires_at : source === 'vip' ? (vip?.expires_at ?? null) : null
          return {
            sortAt,
            item: { ...summaryCard(row), source, expires_at: expiresAt, progress: toCourseProgress(row) },
          }
        })
        .sort((a, b) => (a.sortAt === b.sortAt ? b.item.id - a.item.id : a.sortAt < b.sortAt ? 1 : -1))
      let start = 0
      if (q.cursor) {
        const [at, id] = decodeCursor(q.cursor)
        start = items.findIndex((x) => x.sortAt < at || (x.sortAt === at && x.item.id < id))
        if (start < 0) start = items.length
      }
      const page = items.slice(start, start + q.limit)
      const last = page.at(-1)
      return {
        list: page.map((x) => x.item),
        next_cursor: start + q.limit < items.length && last ? encodeCursor([last.sortAt, last.item.id]) : null,
      }
    },

    /** Adds a note at a second of a video the member may watch (preview included). */
    async addNote(memberId: number, body: { vid: number; second: number; content: string }) {
      const content = body.content.trim()
      if (content.length === 0 || [...content].length > NOTE_MAX_CHARS || controlChars.test(content))
        throw new AppError(Codes.NoteInvalid)
      const decision = await decisionFor(memberId, body.vid)
      if (!decision.allowed)
        throw decision.reason === 'not_found'
          ? new AppError(Codes.NotFound, '视频不存在')
          : new AppError(Codes.NoWatchAccess)
      if ((await countNotes(db, memberId, body.vid)) >= NOTES_PER_VIDEO) throw new AppError(Codes.NotesFull)
      const row = await insertNote(db, { memberId, videoId: body.vid, second: body.second, content, now: now() })
      if (!row) throw new AppError(Codes.NotFound, '视频不存在')
      return {
        id: row.id,
        vid: body.vid,
        second: row.second,
        content: row.content,
        created_at: row.createdAt.toISOString(),
      }
    },

    /** The member's own notes on a video, in video order. */
    async notes(memberId: number, vid: number) {
      const rows = await listNotes(db, memberId, vid, NOTES_PER_VIDEO)
      return {
        list: rows.map((r) => ({
          id: r.id,
          vid,
          second: r.second,
          content: r.content,
          created_at: r.createdAt.toISOString(),
        })),
      }
    },

    /** Deletes one of the member's notes; anyone else's note answers 404 as if it did not exist. */
    async deleteNote(memberId: number, id: number) {
      if (!(await deleteNote(db, memberId, id))) throw new AppError(Codes.NotFound, '笔记不存在')
    },

    /** The active player popups of a video (its own and its course's), by the second they appear at. */
    async popups(vid: number) {
      const rows = await listPopupsForVideo(db, vid)
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

    /**
     * What the course page's bar offers (GET /course/access): full (free or entitled: "开始学习" / "继续学习"),
     * preview ("试看") or none, where to start or continue, the member's progress, and a live course's stream.
     */
    async courseAccess(memberId: number | null, courseId: number): Promise<CourseAccess> {
      const course = await courseDetail(courseId)
      const flat = flatten(course)
      const tryable = flat.find((v) => v.is_free || v.free_seconds > 0)
      let mode: AccessMode
      if (course.is_free) mode = 'full'
      else {
        const locked = await lockedVideo(course)
        if (locked !== null) {
          const decision = await deps.canWatch(memberId, locked)
          mode = decision.allowed && decision.until_second === null ? 'full' : tryable ? 'preview' : 'none'
        } else if (flat.length > 0) {
          mode = 'full'
        } else {
          // A live course before its replay has no video to ask canWatch about: its entitlements decide.
          mode = memberId !== null && (await entitledCourses(memberId)).has(courseId) ? 'full' : 'none'
        }
      }
      const summary = memberId === null ? null : (await listCoursesWithProgress(db, memberId, [courseId]))[0]
      const progress = summary ? toCourseProgress(summary) : null
      const live =
        course.type === 'live' && course.live_status === 'live' && mode === 'full'
          ? await findLivePullUrl(db, courseId)
          : null
      return {
        course_id: courseId,
        mode,
        login_required: memberId === null && mode !== 'full',
        first_vid: (mode === 'full' ? flat[0] : tryable)?.id ?? null,
        resume: progress?.last_vid ? { vid: progress.last_vid, position: progress.last_position ?? 0 } : null,
        progress,
        live_status: course.live_status,
        live_pull_url: safeLink(live),
      }
    },

    /** A system course's programme progress for a member: each course's, and overall. 404 unless a system course. */
    async systemProgress(memberId: number, id: number): Promise<SystemProgress> {
      const course = await courseDetail(id)
      if (course.type !== 'system') throw new AppError(Codes.NotFound, '体系课不存在')
      const ids = [id, ...course.sub_courses.map((c) => c.id)]
      const [rows, entitled] = await Promise.all([
        listCoursesWithProgress(db, memberId, ids),
        entitledCourses(memberId),
      ])
      const byId = new Map(rows.map((r) => [r.id, r]))
      const parts = course.sub_courses.flatMap((c) => {
        const row = byId.get(c.id)
        return row ? [{ course_id: c.id, ...toCourseProgress(row) }] : []
      })
      const own = byId.get(id)
      const all = own ? [{ course_id: id, ...toCourseProgress(own) }, ...parts] : parts
      const latest = all
        .filter((p) => p.last_studied_at)
        .sort((a, b) => (a.last_studied_at! < b.last_studied_at! ? 1 : -1))[0]
      const videoCount = all.reduce((n, p) => n + p.video_count, 0)
      const finished = all.reduce((n, p) => n + p.finished_count, 0)
      return {
        id,
        joined: entitled.has(id) || all.some((p) => p.last_studied_at !== null),
        overall: {
          video_count: videoCount,
          finished_count: finished,
          percent: videoCount > 0 ? Math.floor((finished * 100) / videoCount) : 0,
          last_vid: latest?.last_vid ?? null,
          last_studied_at: latest?.last_studied_at ?? null,
        },
        courses: parts,
      }
    },

    /** The system courses a member has joined (/ke3), with overall progress, most recently studied first. */
    async mySystemCourses(memberId: number) {
      const entitled = await entitledCourses(memberId)
      const ids = await listJoinedSystemCourseIds(db, memberId, [...entitled.keys()])
      const details = (await Promise.all(ids.map((id) => courseDetail(id).catch(() => null)))).filter(
        (d): d is CourseDetail => d !== null,
      )
      const allIds = details.flatMap((d) => [d.id, ...d.sub_courses.map((c) => c.id)])
      const rows = await listCoursesWithProgress(db, memberId, allIds)
      const byId = new Map(rows.map((r) => [r.id, r]))
      const list = details.flatMap((d) => {
        const own = byId.get(d.id)
        if (!own) return []
        const parts = [own, ...d.sub_courses.flatMap((c) => byId.get(c.id) ?? [])].map(toCourseProgress)
        const videoCount = parts.reduce((n, p) => n + p.video_count, 0)
        const finished = parts.reduce((n, p) => n + p.finished_count, 0)
        const latest = parts
          .filter((p) => p.last_studied_at)
          .sort((a, b) => (a.last_studied_at! < b.last_studied_at! ? 1 : -1))[0]
        return [
          {
            ...summaryCard(own),
            course_count: d.sub_courses.length,
            progress: {
              video_count: videoCount,
              finished_count: finished,
              percent: videoCount > 0 ? Math.floor((finished * 100) / videoCount) : 0,
              last_vid: latest?.last_vid ?? null,
              last_studied_at: latest?.last_studied_at ?? null,
            },
          },
        ]
      })
      list.sort(
        (a, b) => (b.progress.last_studied_at ?? '').localeCompare(a.progress.last_studied_at ?? '') || a.id - b.id,
      )
      return { list }
    },
  }
}

export type LearningService = ReturnType<typeof createLearningService>

// ---- Watched share for the refund rule (server/modules/refunds) ---------------------------------------------

/**
 * How much of these videos (the videos of the courses an order bought, with their lengths) the member has
 * watched, in percent of their total length, rounded down: a finished video counts whole, another up to its saved
 * position. 0 when they have no length.
 */
export async function watchedPercent(
  db: DbOrTx,
  memberId: number,
  videos: readonly { id: number; courseId: number; durationSeconds: number }[],
): Promise<number> {
  const total = videos.reduce((sum, v) => sum + v.durationSeconds, 0)
  if (total === 0) return 0
  const seconds = new Map(videos.map((v) => [v.id, v.durationSeconds]))
  const rows = await findWatchedPositions(db, memberId, [...new Set(videos.map((v) => v.courseId))])
  const watched = rows.reduce((sum, r) => {
    const length = seconds.get(r.videoId)
    if (length === undefined) return sum
    return sum + (r.finished ? length : Math.min(r.position, length))
  }, 0)
  return Math.min(100, Math.floor((watched * 100) / total))
}
