import type { FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { AppError } from '#server/http/app-error.ts'
import { requireRole } from '#server/http/auth.ts'
import { Codes } from '#server/http/codes.ts'
import { emptyEnvelope, envelope } from '#server/http/envelope.ts'
import { apiPlugin, apiRoutes } from '#server/http/route.ts'
import type { LearningService } from './learning.service.ts'
import type { ProgressSaver } from './progress.ts'
import {
  Album,
  CourseAccess,
  CourseIdQuery,
  CourseIdsQuery,
  FreeDataBody,
  IdOnlyQuery,
  Note,
  NoteBody,
  NoteDeleteBody,
  NoteList,
  OwnedCoursesResponse,
  PagedQuery,
  PlayDataBody,
  PlayDataResult,
  PopupClickBody,
  PopupList,
  StudyRecord,
  SystemCourseList,
  SystemProgress,
  VideoPage,
  VideoPageList,
  VideoPageQuery,
  VideoQuery,
} from './learning.schema.ts'

const tags = ['learning']

/** Beacon bodies are small: a video id, a position and a token. */
const BEACON_BODY_LIMIT = 2048

const beaconNote =
  'The token may travel in the body (field `token`) instead of ZXB-Token, and the body may be text/plain holding ' +
  'the same JSON: navigator.sendBeacon, used when the page is hidden, can neither set headers nor send ' +
  'application/json. The save checks in its own statement that the session is still live, so a logout counts at ' +
  'once on every instance. Only the two progress endpoints take a token this way.'

/** The player, progress and study screens' API (spec 7): /video, /update_play_data, notes, popups, study lists. */
export const learningRoutes = apiPlugin({ tags }, async (r, { learning }: { learning: LearningService }, app) => {
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
        response: envelope(VideoPage),
      },
      async (request, memberId) => learning.videoPage(memberId, request.query.vid),
    )
  }

  r.get(
    '/video_page',
    {
      token: false,
      summary: 'The videos of a course in order, paged by cursor (with the member’s progress when signed in)',
      querystring: VideoPageQuery,
      response: envelope(VideoPageList),
    },
    async (request, memberId) => learning.videoList(memberId, request.query),
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
    const b = apiRoutes(beacon, { tags })

    /** The member and session from ZXB-Token, else from the body's token (progress-auth.ts); 301/504 as elsewhere. */
    async function saverOf(request: FastifyRequest, bodyToken: string | undefined) {
      if (request.principal || !bodyToken) {
        const { memberId, sessionId } = requireRole(request)
        return { memberId, sessionId }
      }
      const found = await learning.progressMember(bodyToken)
      if ('problem' in found) throw new AppError(found.problem === 'expired' ? Codes.SessionExpired : Codes.NotLoggedIn)
      return found
    }

    /** A progress save, which may come as a beacon. */
    function progressSave<B extends z.ZodType<{ token?: string }>>(
      url: string,
      docs: { summary: string; description: string },
      body: B,
      save: (saver: ProgressSaver, body: z.output<B>) => ReturnType<LearningService['savePlayData']>,
    ) {
      const description = `${docs.description} ${beaconNote}`
      const spec = { ...docs, description, bodyLimit: BEACON_BODY_LIMIT, body, response: envelope(PlayDataResult) }
      b.post(url, spec, async (request) => {
        const input = request.body as z.output<B>
        const saver = await saverOf(request, input.token)
        try {
          return await save(saver, input)
        } catch (err) {
          const sessionGone =
            err instanceof AppError && (err.entry === Codes.NotLoggedIn || err.entry === Codes.SessionExpired)
          if (sessionGone && input.token && !request.principal) learning.forgetProgressToken(input.token)
          throw err
        }
      })
    }

    progressSave(
      '/update_play_data',
      {
        summary: 'Save where the member is in a video (every 10 s, on pause, when the page is hidden)',
        description: "Clamped to the video's length and to the preview the member may watch; finished at 90%.",
      },
      PlayDataBody,
      learning.savePlayData,
    )
    progressSave(
      '/video/updateFreeData',
      {
        summary: 'Save where a member is in a free preview (never past its end)',
        description: "Signed-in members only; an anonymous visitor's preview position stays in the browser.",
      },
      FreeDataBody,
      learning.saveFreeData,
    )
  })

  r.get(
    '/center/study_record',
    {
      auth: 'required',
      summary: 'Study history, newest first, with progress',
      querystring: PagedQuery,
      response: envelope(StudyRecord),
    },
    async (request, memberId) => learning.studyRecord(memberId, request.query),
  )

  r.get(
    '/center/my_album',
    {
      auth: 'required',
      summary: 'What the member may watch (/ke1): entitled courses and started free courses, with progress',
      querystring: PagedQuery,
      response: envelope(Album),
    },
    async (request, memberId) => learning.album(memberId, request.query),
  )

  r.get(
    '/center/system_courses',
    {
      auth: 'required',
      summary: 'System courses the member has joined (/ke3), with overall progress',
      response: envelope(SystemCourseList),
    },
    async (_request, memberId) => learning.mySystemCourses(memberId),
  )

  r.get(
    '/system_course/progress',
    {
      auth: 'required',
      summary: 'The member’s progress in a system course: each of its courses and overall',
      querystring: IdOnlyQuery,
      response: envelope(SystemProgress),
    },
    async (request, memberId) => learning.systemProgress(memberId, request.query.id),
  )

  r.get(
    '/course/access',
    {
      token: false,
      summary:
        'What the course page offers this visitor: full, preview or none; where to start or continue; the live stream',
      querystring: CourseIdQuery,
      response: envelope(CourseAccess),
    },
    async (request, memberId) => learning.courseAccess(memberId, request.query.course_id),
  )

  r.get(
    '/course/owned',
    {
      token: false,
      summary: 'Which of these courses (the cards of a screen) the member has bought; none for a visitor',
      querystring: CourseIdsQuery,
      response: OwnedCoursesResponse,
    },
    async (request, memberId) => learning.ownedAmong(memberId, request.query.ids),
  )

  r.post(
    '/video/note',
    {
      auth: 'required',
      summary: 'Add a note at a second of a video (1–500 characters)',
      body: NoteBody,
      response: envelope(Note),
    },
    async (request, memberId) => learning.addNote(memberId, request.body),
  )

  r.get(
    '/video/notes',
    {
      auth: 'required',
      summary: 'The member’s own notes on a video, in video order',
      querystring: VideoQuery,
      response: envelope(NoteList),
    },
    async (request, memberId) => learning.notes(memberId, request.query.vid),
  )

  r.post(
    '/video/note/delete',
    { auth: 'required', summary: 'Delete one of the member’s notes', body: NoteDeleteBody, response: emptyEnvelope },
    async (request, memberId) => learning.deleteNote(memberId, request.body.id),
  )

  r.get(
    '/popup/player/v2',
    {
      token: false,
      summary: 'Player popups of a video (its own and its course’s), with the second each appears at',
      querystring: VideoQuery,
      response: envelope(PopupList),
    },
    async (request, memberId) => learning.popups(request.query.vid, memberId),
  )

  r.post(
    '/popup/player/click',
    {
      token: false,
      summary: 'Report a tap on a player popup (signed in or not)',
      body: PopupClickBody,
      response: emptyEnvelope,
    },
    async (request, memberId) => {
      await learning.popupClick(request.body.id, memberId)
    },
  )
})
