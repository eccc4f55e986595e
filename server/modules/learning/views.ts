import { z } from 'zod'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { cursorId, decodeCursor } from '#server/http/cursor.ts'
import type { WatchDecision } from '#server/modules/access/access.service.ts'
import type { CourseDetail } from '#shared/api/catalogue.ts'
import type { ProgressRow } from './learning.repository.ts'
import type { Access, AccessMode } from './learning.schema.ts'

// Small pure helpers the learning use cases share: flattening a course, progress and access as the API shows them.

export interface FlatVideo {
  id: number
  title: string
  duration: number
  is_free: boolean
  free_seconds: number
  chapterId: number
  chapterTitle: string
}

export function flatten(course: CourseDetail): FlatVideo[] {
  return course.chapters.flatMap((c) => c.videos.map((v) => ({ ...v, chapterId: c.id, chapterTitle: c.title })))
}

export function percentOf(position: number, duration: number, finished: boolean) {
  if (finished) return 100
  if (duration <= 0) return 0
  return Math.min(100, Math.floor((position * 100) / duration))
}

export function toProgress(row: ProgressRow | undefined) {
  if (!row) return { position: 0, percent: 0, finished: false }
  const finished = row.finishedAt !== null
  return { position: row.position, percent: percentOf(row.position, row.duration, finished), finished }
}

export function toAccess(decision: WatchDecision, anonymous: boolean): Access {
  const mode: AccessMode = !decision.allowed ? 'none' : decision.until_second === null ? 'full' : 'preview'
  return {
    mode,
    until_second: decision.allowed ? decision.until_second : null,
    reason: decision.allowed ? decision.reason : 'no_access',
    login_required: anonymous && mode !== 'full',
  }
}

export function isCode(err: unknown, entry: { code: number }) {
  return err instanceof AppError && err.entry.code === entry.code
}

/** The lists' cursor: [an ISO instant with up to microseconds, an id] (server/http/cursor.ts encodes it). */
const timeIdCursor = z.tuple([z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/), cursorId])

export function decodeTimeIdCursor(text: string): [string, number] {
  return decodeCursor(text, timeIdCursor)
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

/** Throws what a refused decision means to the learning endpoints: 404 for an unknown video, else 474. */
export function refuse(decision: WatchDecision & { allowed: false }): never {
  throw decision.reason === 'not_found' ? new AppError(Codes.NotFound, '视频不存在') : new AppError(Codes.NoWatchAccess)
}
