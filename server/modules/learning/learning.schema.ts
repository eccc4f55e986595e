import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { envelope } from '#server/http/envelope.ts'
import { CourseCard, courseTypes, LiveStatus } from '#shared/api/catalogue.ts'
import { BodyId, IdQuery, pageLimit } from '#shared/api/params.ts'

// ---- Request pieces ----------------------------------------------------------------------------------------

/** Longest position we accept: 24 hours in seconds; a longer "lesson" is a broken player. */
const MAX_SECOND = 86_400

/** Seconds in a JSON body, fractions allowed (players report them) and floored. */
const seconds = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,6}(\.\d+)?$/, '必须是秒数')
      .transform(Number),
  ])
  .refine((n) => Number.isFinite(n) && n >= 0 && n <= MAX_SECOND, `必须是 0–${MAX_SECOND} 秒`)
  .transform((n) => Math.floor(n))

const cursor = z.string().max(200).optional().describe('next_cursor of the previous page')

/**
 * A beacon (navigator.sendBeacon, sent when the page is hidden) cannot set the ZXB-Token header, so the progress
 * endpoints — and only they — also take the token in the body.
 */
const beaconToken = z
  .string()
  .min(20)
  .max(100)
  .optional()
  .describe('Only for sendBeacon, which cannot send the ZXB-Token header')

/**
 * Which page view of the player sent a save, and its order there: saves of one view can arrive out of order (a
 * periodic save still in flight when the page-hide beacon goes out), and the server keeps the later one. Saves
 * without them (older pages) are taken as they come; one without the other is refused.
 */
const saveOrder = {
  view: z.int().min(1).max(2_147_483_647).optional().describe('A random id of the player page view (with seq)'),
  seq: z.int().min(0).max(2_147_483_647).optional().describe('The save’s number within that page view (with view)'),
}
const bothOrNeither: [(b: { view?: number; seq?: number }) => boolean, { message: string; path: string[] }] = [
  (b) => (b.view === undefined) === (b.seq === undefined),
  { message: 'view 和 seq 须同时提供', path: ['seq'] },
]

export const VideoQuery = z.object({ vid: IdQuery.describe('The video id') })
export const CourseIdQuery = z.object({ course_id: IdQuery })
export const IdOnlyQuery = z.object({ id: IdQuery })

export const VideoPageQuery = z.object({
  course_id: IdQuery,
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, '格式不正确')
    .optional()
    .describe('next_cursor of the previous page (a video id)'),
  limit: pageLimit(100, 30),
})
export type VideoPageQuery = z.output<typeof VideoPageQuery>

export const PlayDataBody = z
  .object({
    vid: BodyId,
    position: seconds.describe('Where the player is, in seconds'),
    duration: seconds.optional().describe('The length the player sees; used only while the server knows none'),
    token: beaconToken,
    ...saveOrder,
  })
  .refine(...bothOrNeither)
export type PlayDataBody = z.output<typeof PlayDataBody>

export const FreeDataBody = z
  .object({
    vid: BodyId,
    position: seconds.describe('Where the preview is, in seconds'),
    token: beaconToken,
    ...saveOrder,
  })
  .refine(...bothOrNeither)

export const NOTE_MAX_CHARS = 500
export const NoteBody = z.object({
  vid: BodyId,
  second: seconds.describe('The point of the video the note is about'),
  // Loose bound here; the service trims and applies the real rules.
  content: z.string().max(NOTE_MAX_CHARS * 4),
})
export const NoteDeleteBody = z.object({ id: BodyId })
export const PopupClickBody = z.object({ id: BodyId })

export const PagedQuery = z.object({ cursor, limit: pageLimit(50, 20) })
export type PagedQuery = z.output<typeof PagedQuery>

// ---- Response pieces ---------------------------------------------------------------------------------------

export const AccessMode = z
  .enum(['full', 'preview', 'none'])
  .describe('full: the whole video; preview: until until_second; none: nothing')
export type AccessMode = z.infer<typeof AccessMode>

export const Access = z.object({
  mode: AccessMode,
  until_second: z.number().int().nullable().describe('The preview ends here; null with full access'),
  reason: z.enum(['free_course', 'free_video', 'entitled', 'preview', 'no_access']),
  login_required: z.boolean().describe('Anonymous without full access: logging in may unlock the video'),
})
export type Access = z.infer<typeof Access>

const VideoProgress = z.object({
  position: z.number().int().describe('Seconds; 0 when never watched'),
  percent: z.number().int().describe('0–100'),
  finished: z.boolean().describe('Watched to 90% at least once'),
})

const PlayerVideo = z.object({
  id: z.number().int(),
  title: z.string(),
  duration: z.number().int(),
  is_free: z.boolean(),
  free_seconds: z.number().int(),
  progress: VideoProgress.nullable().describe('Null for anonymous visitors'),
})

export const VideoPage = z.object({
  video: PlayerVideo.extend({ course_id: z.number().int(), chapter_id: z.number().int() }),
  course: z.object({
    id: z.number().int(),
    type: z.enum(courseTypes),
    title: z.string(),
    cover: z.string(),
    is_free: z.boolean(),
    vip_free: z.boolean(),
    price_fen: Fen,
    original_price_fen: Fen.nullable(),
    video_count: z.number().int(),
  }),
  chapters: z.array(z.object({ id: z.number().int(), title: z.string(), videos: z.array(PlayerVideo) })),
  access: Access,
  resume_position: z.number().int().describe('Where to start: the saved position (0 at the end or when never watched)'),
  next_vid: z.number().int().nullable(),
  prev_vid: z.number().int().nullable(),
  play: z
    .object({
      master_url: z.string().describe('Signed HLS master playlist (see GET /api/video/play)'),
      expires_at: z.number().int(),
      poster_url: z.string().nullable(),
    })
    .nullable()
    .describe('Null when nothing may be played or the video is still being processed (play_status)'),
  play_status: z.enum(['ready', 'no_access', 'processing']),
  watermark: z.string().nullable().describe('Text drawn over the video for a signed-in member: part of their id'),
})
export type VideoPage = z.infer<typeof VideoPage>

export const VideoPageList = z.object({
  course_id: z.number().int(),
  list: z.array(
    PlayerVideo.extend({
      chapter_id: z.number().int(),
      chapter_title: z.string(),
      index: z.number().int().describe('1-based place in the course'),
    }),
  ),
  next_cursor: z.string().nullable(),
})

export const PlayDataResult = z.object({
  vid: z.number().int(),
  position: z.number().int().describe('What was saved, after clamping'),
  duration: z.number().int(),
  finished: z.boolean(),
  until_second: z.number().int().nullable(),
  preview_ended: z.boolean().describe('The position reached the end of the preview'),
})
export type PlayDataResult = z.infer<typeof PlayDataResult>

export const StudyRecordItem = z.object({
  vid: z.number().int(),
  video_title: z.string(),
  course_id: z.number().int(),
  course_title: z.string(),
  course_cover: z.string(),
  course_type: z.enum(courseTypes),
  position: z.number().int(),
  duration: z.number().int(),
  percent: z.number().int(),
  finished: z.boolean(),
  updated_at: z.string(),
})
export const StudyRecord = z.object({ list: z.array(StudyRecordItem), next_cursor: z.string().nullable() })

export const CourseProgress = z.object({
  video_count: z.number().int(),
  finished_count: z.number().int(),
  started_count: z.number().int().describe('Videos started (finished ones included)'),
  percent: z
    .number()
    .int()
    .describe('Share watched, 0–100, rounded down: a finished video counts whole, another its watched share'),
  last_vid: z.number().int().nullable().describe('The video watched last: continue here'),
  last_position: z.number().int().nullable(),
  last_studied_at: z.string().nullable(),
})
export type CourseProgress = z.infer<typeof CourseProgress>

export const AlbumItem = CourseCard.extend({
  source: z
    .enum(['admin', 'purchase', 'vip', 'redeem', 'exchange', 'unlock', 'tuition', 'free'])
    .describe('Why the member may watch it'),
  expires_at: z.string().nullable().describe('When the access ends; null: never'),
  progress: CourseProgress,
})
export const Album = z.object({ list: z.array(AlbumItem), next_cursor: z.string().nullable() })

export const Note = z.object({
  id: z.number().int(),
  vid: z.number().int(),
  second: z.number().int(),
  content: z.string(),
  created_at: z.string(),
})
export const NoteList = z.object({ list: z.array(Note) })

export const PlayerPopup = z.object({
  id: z.number().int(),
  at_second: z.number().int(),
  title: z.string(),
  content: z.string().describe('Plain text'),
  image: z.string().nullable(),
  link: z.string().nullable().describe('An in-site path or an http(s) URL'),
})
export const PopupList = z.object({ list: z.array(PlayerPopup) })

export const CourseAccess = z.object({
  course_id: z.number().int(),
  mode: AccessMode.describe('full: free or entitled; preview: some videos can be tried; none'),
  login_required: z.boolean(),
  owned: z.boolean().describe('Bought: an entitlement to the course or a system course holding it (not VIP)'),
  via_vip: z.boolean().describe('Watchable in full only through a running VIP membership (a VIP-free course)'),
  first_vid: z
    .number()
    .int()
    .nullable()
    .describe('Where to start: the first video (preview: the first one that can be tried)'),
  resume: z.object({ vid: z.number().int(), position: z.number().int() }).nullable().describe('The video watched last'),
  progress: CourseProgress.nullable(),
  live_status: LiveStatus.nullable(),
  live_pull_url: z.string().nullable().describe('Live courses while live, for members who may watch'),
})
export type CourseAccess = z.infer<typeof CourseAccess>

export const SystemProgress = z.object({
  id: z.number().int(),
  joined: z.boolean().describe('Entitled to it or started one of its videos'),
  overall: CourseProgress.omit({ last_position: true }),
  courses: z.array(CourseProgress.extend({ course_id: z.number().int() })),
})
export type SystemProgress = z.infer<typeof SystemProgress>

export const SystemCourseList = z.object({
  list: z.array(
    CourseCard.extend({ progress: CourseProgress.omit({ last_position: true }), course_count: z.number().int() }),
  ),
})

/** `ids=1,2,3`: up to 100 course ids (the cards of one screen). */
export const CourseIdsQuery = z.object({
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,99}$/, '课程编号格式不正确')
    .transform((v) => v.split(',').map(Number))
    .describe('Comma-separated course ids, at most 100'),
})
export const OwnedCoursesResponse = envelope(
  z.object({ owned: z.array(z.number().int()).describe('The ids asked for that the member has bought') }),
)
