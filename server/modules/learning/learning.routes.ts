import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { AppError } from '#server/http/app-error.ts'
import { requireRole } from '#server/http/auth.ts'
import { Codes } from '#server/http/codes.ts'
import { emptyEnvelope, ok } from '#server/http/envelope.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { LearningService } from './learning.service.ts'
import {
  AlbumResponse,
  CourseAccessResponse,
  CourseIdQuery,
  FreeDataBody,
  IdOnlyQuery,
  NoteBody,
  NoteDeleteBody,
  NoteListResponse,
  NoteResponse,
  PagedQuery,
  PlayDataBody,
  PlayDataResponse,
  PopupClickBody,
  PopupListResponse,
  StudyRecordResponse,
  SystemCourseListResponse,
  SystemProgressResponse,
  VideoPageListResponse,
  VideoPageQuery,
  VideoPageResponse,
  VideoQuery,
} from './learning.schema.ts'

const tags = ['learning']
const security = [{ token: [] }]
const member = { auth: 'required' as const }

/** Beacon bodies are small: a video id, a position and a token. */
const BEACON_BODY_LIMIT = 2048

const beaconNote =
  'The token may travel in the body (field `token`) instead of ZXB-Token, and the body may be text/plain holding ' +
  'the same JSON: navigator.sendBeacon, used when the page is hidden, can neither set headers nor send ' +
  'application/json. A body token is trusted for up to 60 s per process without a new lookup (these saves are ' +
  'the hottest writes). Only the two progress endpoints take a token this way.'

interface LearningRoutesOptions {
  learning: LearningService
}

/** The player, progress and study screens' API (spec 7): /video, /update_play_data, notes, popups, study lists. */
export async function learningRoutes(app: FastifyInstance, opts: LearningRoutesOptions) {
  const { learning } = opts
  const r = apiRoutes(app, { tags })

  for (const url of ['/video', '/v2/video']) {
    r.get(
      url,
      {
        token: false,
        summary:
          'A video for the player: course and chapters, access (full / preview / none), resume position, next video, signed HLS URL',
        description:
          'Works for anonymous visitors (free videos and previews); with ZXB-Token the progress and entitlement are the member’s.',
        querystring: VideoQuery,
        response: VideoPageResponse,
      },
      async (request) => learning.videoPage(request.principal?.memberId ?? null, request.query.vid),
    )
  }

  r.get(
    '/video_page',
    {
      token: false,
      summary: 'The videos of a course in order, paged by cursor (with the member’s progress when signed in)',
      querystring: VideoPageQuery,
      response: VideoPageListResponse,
    },
    async (request) => learning.videoList(request.principal?.memberId ?? null, request.query),
  )

  // The two progress saves take beacons: a text/plain JSON body, with the token inside it.
  await app.register(async (beacon) => {
    beacon.removeContentTypeParser('text/plain')
    beacon.addContentTypeParser(
      'text/plain',
      { parseAs: 'string', bodyLimit: BEACON_BODY_LIMIT },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string))
        } catch {
          done(new AppError(Codes.BadRequest, '请求内容不是有效的 JSON'), undefined)
        }
      },
    )
    const b = beacon.withTypeProvider<ZodTypeProvider>()

    /** The member from ZXB-Token, else from the body's token (progress-auth.ts); 301/504 as everywhere else. */
    async function memberOf(request: FastifyRequest, bodyToken: string | undefined) {
      if (request.principal || !bodyToken) return requireRole(request).memberId
      const found = await learning.progressMember(bodyToken)
      if ('problem' in found) throw new AppError(found.problem === 'expired' ? Codes.SessionExpired : Codes.NotLoggedIn)
      return found.memberId
    }

    b.post(
      '/update_play_data',
      {
        bodyLimit: BEACON_BODY_LIMIT,
        schema: {
          tags,
          security,
          summary: 'Save where the member is in a video (every 10 s, on pause, when the page is hidden)',
          description: `Clamped to the video's length and to the preview the member may watch; finished at 90%. ${beaconNote}`,
          body: PlayDataBody,
          response: { 200: PlayDataResponse },
        },
      },
      async (request) => {
        const memberId = await memberOf(request, request.body.token)
        return ok(await learning.savePlayData(memberId, request.body))
      },
    )

    b.post(
      '/video/updateFreeData',
      {
        bodyLimit: BEACON_BODY_LIMIT,
        schema: {
          tags,
          security,
          summary: 'Save where a member is in a free preview (never past its end)',
          description: `Signed-in members only; an anonymous visitor's preview position stays in the browser. ${beaconNote}`,
          body: FreeDataBody,
          response: { 200: PlayDataResponse },
        },
      },
      async (request) => {
        const memberId = await memberOf(request, request.body.token)
        return ok(await learning.saveFreeData(memberId, request.body))
      },
    )
  })

  r.get(
    '/center/study_record',
    {
      config: member,
      summary: 'Study history, newest first, with progress',
      querystring: PagedQuery,
      response: StudyRecordResponse,
    },
    async (request) => learning.studyRecord(request.principal!.memberId, request.query),
  )

  r.get(
    '/center/my_album',
    {
      config: member,
      summary: 'What the member may watch (/ke1): entitled courses and started free courses, with progress',
      querystring: PagedQuery,
      response: AlbumResponse,
    },
    async (request) => learning.album(request.principal!.memberId, request.query),
  )

  r.get(
    '/center/system_courses',
    {
      config: member,
      summary: 'System courses the member has joined (/ke3), with overall progress',
      response: SystemCourseListResponse,
    },
    async (request) => learning.mySystemCourses(request.principal!.memberId),
  )

  r.get(
    '/system_course/progress',
    {
      config: member,
      summary: 'The member’s progress in a system course: each of its courses and overall',
      querystring: IdOnlyQuery,
      response: SystemProgressResponse,
    },
    async (request) => learning.systemProgress(request.principal!.memberId, request.query.id),
  )

  r.get(
    '/course/access',
    {
      token: false,
      summary:
        'What the course page offers this visitor: full, preview or none; where to start or continue; the live stream',
      querystring: CourseIdQuery,
      response: CourseAccessResponse,
    },
    async (request) => learning.courseAccess(request.principal?.memberId ?? null, request.query.course_id),
  )

  r.post(
    '/video/note',
    {
      config: member,
      summary: 'Add a note at a second of a video (1–500 characters)',
      body: NoteBody,
      response: NoteResponse,
    },
    async (request) => learning.addNote(request.principal!.memberId, request.body),
  )

  r.get(
    '/video/notes',
    {
      config: member,
      summary: 'The member’s own notes on a video, in video order',
      querystring: VideoQuery,
      response: NoteListResponse,
    },
    async (request) => learning.notes(request.principal!.memberId, request.query.vid),
  )

  r.post(
    '/video/note/delete',
    { config: member, summary: 'Delete one of the member’s notes', body: NoteDeleteBody, response: emptyEnvelope },
    async (request) => {
      await learning.deleteNote(request.principal!.memberId, request.body.id)
      return {}
    },
  )

  r.get(
    '/popup/player/v2',
    {
      token: false,
      summary: 'Player popups of a video (its own and its course’s), with the second each appears at',
      querystring: VideoQuery,
      response: PopupListResponse,
    },
    async (request) => learning.popups(request.query.vid),
  )

  r.post(
    '/popup/player/click',
    {
      token: false,
      summary: 'Report a tap on a player popup (signed in or not)',
      body: PopupClickBody,
      response: emptyEnvelope,
    },
    async (request) => {
      await learning.popupClick(request.body.id, request.principal?.memberId ?? null)
      return {}
    },
  )
}
